/**
 * File parts of multipart calls (issue 11 finding 6): streamed to temporary files, never buffered
 * while the request is read, under two caps:
 * - per request: the file bytes of one call (UploadLimits.requestMaxBytes): over it the call is
 *   refused VF and the rest of the body is not read;
 * - per process: the file bytes held by all calls under way at once (inFlightMaxBytes), counted
 *   from the first byte read until the call has ended and its files are deleted: over it the call
 *   is refused 503 with Retry-After, so many parallel uploads cannot exhaust memory or disk.
 * The endpoint reads a call's files into memory only after the body validated and the caller's
 * rights were checked, just before the handler; those bytes are within the same reservation.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { DOCUMENT_MAX_BYTES } from '../../../api/documents.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import type { UploadedFile } from '../method-types.ts';

export interface UploadLimits {
  /** file bytes of one call */
  requestMaxBytes: number;
  /** file bytes of every call under way at once, in this process */
  inFlightMaxBytes: number;
}

/** Three documents of the largest size per call (a document's front, back and stamp); 64 MB at once. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { requestMaxBytes: 3 * DOCUMENT_MAX_BYTES, inFlightMaxBytes: 64 * 1024 * 1024 };

export const UploadMessages = {
  busy: 'Too many files are being received right now; try again in a few seconds',
} as const;

/** Seconds a client is asked to wait when the process-wide cap refuses a call. */
export const UPLOAD_RETRY_AFTER_S = 5;

/** The bytes held by calls under way, against the process-wide cap. */
export interface UploadBudget {
  readonly maxBytes: number;
  inFlight(): number;
  /** takes bytes if they fit under the cap; false (nothing taken) if not */
  reserve(bytes: number): boolean;
  release(bytes: number): void;
}

export function createUploadBudget(maxBytes: number): UploadBudget {
  let held = 0;
  return {
    maxBytes,
    inFlight: () => held,
    reserve(bytes) {
      if (held + bytes > maxBytes) return false;
      held += bytes;
      return true;
    },
    release(bytes) {
      held = Math.max(0, held - bytes);
    },
  };
}

/** Why a multipart body was not read to its end: its own cap, or the process's. */
export class UploadRefused extends Error {
  constructor(readonly cap: 'request' | 'process') {
    super(`upload over the ${cap} cap`);
  }
}

/** A file part written to disk; read with loadFiles just before the handler. */
export interface StoredFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  path: string;
  sizeBytes: number;
}

/** What one call holds: its temporary files and its reserved bytes, released by `release`. */
export interface HeldUploads {
  paths: string[];
  bytes: number;
}

export async function createUploadDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'wlb-uploads-'));
}

export interface MultipartOptions {
  dir: string;
  limits: UploadLimits;
  budget: UploadBudget;
  held: HeldUploads;
  /** the largest file part; a longer one is cut short and answered VF naming its field */
  fileMaxBytes: number;
  maxFiles: number;
  /** the largest `data` part (the JSON) */
  fieldMaxBytes: number;
}

/**
 * Reads a multipart body: the `data` part's text and each file part streamed to a file of its own
 * under `dir`. Throws UploadRefused when a cap is crossed (the rest is left unread).
 */
export async function readMultipart(
  request: FastifyRequest,
  options: MultipartOptions,
): Promise<{ data: string | undefined; files: StoredFile[]; errors: CodedValidationError[] }> {
  const { dir, limits, budget, held } = options;
  let data: string | undefined;
  const files: StoredFile[] = [];
  const errors: CodedValidationError[] = [];
  let requestBytes = 0;
  // A file over the part limit is cut short and its rest discarded (throwFileSizeLimit false): the
  // call is answered VF naming the file's field, like the document checks.
  // (@fastify/multipart reads throwFileSizeLimit from these options; its typings leave it out.)
  const partOptions: Parameters<FastifyRequest['parts']>[0] & { throwFileSizeLimit: boolean } = {
    limits: { fileSize: options.fileMaxBytes, files: options.maxFiles, fieldSize: options.fieldMaxBytes },
    throwFileSizeLimit: false,
  };
  try {
    for await (const part of request.parts(partOptions)) {
      if (part.type !== 'file') {
        if (part.fieldname === 'data') data = String(part.value);
        continue;
      }
      const path = join(dir, randomUUID());
      held.paths.push(path);
      let sizeBytes = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          requestBytes += chunk.length;
          if (requestBytes > limits.requestMaxBytes) return done(new UploadRefused('request'));
          if (!budget.reserve(chunk.length)) return done(new UploadRefused('process'));
          held.bytes += chunk.length;
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      try {
        await pipeline(part.file, counted, out);
      } catch (err) {
        // The file may still be opening: let it close, so that releasing the call deletes it.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        throw err;
      }
      if (part.file.truncated) errors.push(vf(part.fieldname, VfCode.fileTooLarge, { maxMb: options.fileMaxBytes / 1_000_000 }));
      else files.push({ fieldName: part.fieldname, fileName: part.filename, mimeType: part.mimetype, path, sizeBytes });
    }
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'FST_FILES_LIMIT') throw err;
    errors.push(vf('files', VfCode.tooManyFiles, { max: options.maxFiles }));
  }
  return { data, files, errors };
}

/** The stored files, read for the handler (their bytes are already reserved). */
export async function loadFiles(files: readonly StoredFile[]): Promise<UploadedFile[]> {
  return Promise.all(files.map(async (f) => ({ fieldName: f.fieldName, fileName: f.fileName, mimeType: f.mimeType, content: await readFile(f.path) })));
}

/** Deletes a call's temporary files and gives its bytes back to the budget. */
export async function releaseUploads(held: HeldUploads, budget: UploadBudget): Promise<void> {
  // Taken at once, so a second release of the same call gives nothing back twice.
  const paths = held.paths.splice(0);
  const bytes = held.bytes;
  held.bytes = 0;
  budget.release(bytes);
  await Promise.all(paths.map((p) => rm(p, { force: true })));
}
