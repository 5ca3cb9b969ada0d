/**
 * The built-in e-signature adapter (the default; esign.ts is the port): envelopes in
 * esign_envelopes / esign_documents, signed on the web app's own page (/e-sign/<token>, REST in
 * esign.routes.ts). Purpose-neutral: the tax forms (issue 18) and the contracts (issue 19) use it
 * alike; each purpose files its signed documents with its onDocumentSigned handler.
 *
 * Sign URLs and their secret. signData (document 3 §3) has one sign URL per document, and the
 * signing page must be able to go on to the envelope's next document, while the platform keeps
 * only hashes of the secrets. So an envelope gets ONE random secret (256 bits) and its document at
 * position p (1-based) has the token `<secret>~<p>`; each document row stores SHA-256 of its own
 * token (tokenHash, unique). Holding any of an envelope's links therefore lets its signer reach
 * the others (the same person is asked to sign all of them), the server derives the next
 * document's token from the request's own secret, and nothing in the database gives a link back.
 * A token that names no document (another position, a forged secret) is simply unknown.
 *
 * An envelope is open for seven days (not shown in the spec); asking again (the same purpose,
 * customer and representative) voids the open one, whose links then answer "voided".
 *
 * Signing (signDocument) happens once per document: the envelope's row is locked for the signing
 * transaction, a signed document answers "already signed" (a second press, a retry after a lost
 * answer), and the purpose's handler files the signed PDF in the same transaction, so a handler
 * that fails leaves nothing signed. A purpose whose PDF may have changed since the envelope
 * started (a contract the other side signed meanwhile) gives the PDF to stamp at signing time
 * (esign.ts onDocumentSigning, read under the purpose's lock); the document's unsigned PDF is then
 * that one.
 *
 * Not in the tables (migration 0022 has no column for it): a document's signatureBox is kept in
 * the envelope's context under SIGNATURE_BOXES_KEY, and taken out before the context reaches the
 * purpose's handler.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  ESIGN_TOKEN_PATTERN,
  SIGNATURE_BOX,
  SIGNATURE_LIMITS,
  TYPED_NAME_LIMITS,
  type EsignDocument,
  type EsignEnvelopeStatus,
  type EsignSigned,
  type EsignState,
} from '../../../api/esign.ts';
import { vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import type { Db, Tx } from '../../db/types.ts';
import { randomToken, sha256Hex } from '../auth/crypto.ts';
import { signedDocumentHandler, signingBaseReader, type SignatureAdapter, type SignatureRequest, type SignatureStart } from './esign.ts';
import { esignDocuments, esignEnvelopes } from './esign.tables.ts';
import { pdfPageCount, stampSignature, type SignatureBox } from './stamp.ts';

/** How long an envelope's links work (not shown in the spec: a week). */
export const SIGNING_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where the signature boxes are kept in an envelope's context (no column for them). */
export const SIGNATURE_BOXES_KEY = 'esign.signatureBoxes';

export const BUILTIN_ADAPTER_NAME = 'builtin';

/** A failure of the signing page's calls, answered by esign.routes.ts as the envelope's error body. */
export class EsignFailure extends Error {
  constructor(
    readonly statusCode: 400 | 404 | 409 | 410,
    readonly responseCode: 'VF' | 'ENOA',
    message: string,
    readonly validationErrors?: CodedValidationError[],
  ) {
    super(message);
    this.name = 'EsignFailure';
  }
}

const unknownToken = () => new EsignFailure(404, 'ENOA', 'This signing link is not known');
const expired = () => new EsignFailure(410, 'VF', 'This signing link has expired', [vf('token', VfCode.codeExpired)]);
const voided = () => new EsignFailure(410, 'VF', 'This signing link was replaced by a newer one', [vf('token', VfCode.requestNotActive, { status: 'voided' })]);
const alreadySigned = () => new EsignFailure(409, 'VF', 'This document is signed already', [vf('token', VfCode.alreadyAccepted)]);

function sha256Bytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function splitToken(token: string): { secret: string; position: number } | null {
  if (!ESIGN_TOKEN_PATTERN.test(token)) return null;
  const cut = token.indexOf('~');
  return { secret: token.slice(0, cut), position: Number(token.slice(cut + 1)) };
}

const tokenOf = (secret: string, position: number) => `${secret}~${position}`;

/**
 * The built-in adapter. `publicUrl` is the web app's public origin (the sign URLs are absolute:
 * they may be sent by e-mail or opened on another device).
 */
export function builtinSignatureAdapter(options: { publicUrl: string }): SignatureAdapter {
  const base = options.publicUrl.replace(/\/+$/, '');
  return {
    name: BUILTIN_ADAPTER_NAME,
    async start(tx: Tx, request: SignatureRequest): Promise<SignatureStart> {
      if (request.documents.length === 0) throw new Error('an envelope needs at least one document');
      const now = new Date(request.nowMs);
      const representativeId = request.representativeId ?? null;
      await tx
        .update(esignEnvelopes)
        .set({ status: 'voided' })
        .where(
          and(
            eq(esignEnvelopes.purpose, request.purpose),
            eq(esignEnvelopes.customerId, request.customerId),
            representativeId === null ? isNull(esignEnvelopes.representativeId) : eq(esignEnvelopes.representativeId, representativeId),
            eq(esignEnvelopes.status, 'sent'),
            request.supersedes ? sql`${esignEnvelopes.context} @> ${JSON.stringify(request.supersedes)}::jsonb` : undefined,
          ),
        );
      const boxes: Record<string, SignatureBox> = {};
      request.documents.forEach((d, i) => {
        if (d.signatureBox) boxes[String(i + 1)] = d.signatureBox;
      });
      const clientId = randomUUID();
      const [envelope] = await tx
        .insert(esignEnvelopes)
        .values({
          clientId,
          purpose: request.purpose,
          adapter: BUILTIN_ADAPTER_NAME,
          customerId: request.customerId,
          representativeId,
          createdByUserId: request.createdByUserId,
          signerName: request.signer.name,
          signerEmail: request.signer.email,
          context: Object.keys(boxes).length > 0 ? { ...request.context, [SIGNATURE_BOXES_KEY]: boxes } : request.context,
          returnPath: request.returnPath,
          status: 'sent',
          createdAt: now,
          expiresAt: new Date(request.nowMs + SIGNING_TTL_MS),
        })
        .returning({ id: esignEnvelopes.id });
      const secret = randomToken();
      const tokens = request.documents.map((_, i) => tokenOf(secret, i + 1));
      await tx.insert(esignDocuments).values(
        request.documents.map((d, i) => ({
          envelopeId: envelope!.id,
          position: i + 1,
          kind: d.kind,
          title: d.title,
          fileName: d.fileName,
          tokenHash: sha256Hex(tokens[i]!),
          unsignedPdf: Buffer.from(d.pdf),
          unsignedSha256: sha256Bytes(d.pdf),
        })),
      );
      return { clientId, signUrls: tokens.map((t) => `${base}/e-sign/${t}`) };
    },
  };
}

/** The adapter the purposes use (the built-in one: no other provider is configured yet). */
export function defaultSignatureAdapter(options: { publicUrl: string }): SignatureAdapter {
  return builtinSignatureAdapter(options);
}

/* ------------------------------------------------------------------------------ reading */

type EnvelopeRow = typeof esignEnvelopes.$inferSelect;
type DocumentRow = typeof esignDocuments.$inferSelect;
type DocumentHead = Pick<DocumentRow, 'id' | 'position' | 'signedAt'>;

interface Found {
  secret: string;
  envelope: EnvelopeRow;
  document: DocumentRow;
  documents: DocumentHead[];
}

/** The envelope's status as the signer sees it: an open envelope past its time is expired. */
function statusAt(envelope: EnvelopeRow, nowMs: number): EsignEnvelopeStatus {
  return envelope.status === 'sent' && envelope.expiresAt.getTime() <= nowMs ? 'expired' : envelope.status;
}

async function find(db: Db | Tx, token: string, lock: boolean): Promise<Found> {
  const parts = splitToken(token);
  if (!parts) throw unknownToken();
  const [head] = await db
    .select({ envelopeId: esignDocuments.envelopeId })
    .from(esignDocuments)
    .where(eq(esignDocuments.tokenHash, sha256Hex(token)));
  if (!head) throw unknownToken();
  // the envelope's row is the signing lock: two documents of it signed at once still complete it once
  const envelopeQuery = db.select().from(esignEnvelopes).where(eq(esignEnvelopes.id, head.envelopeId));
  const [envelope] = lock ? await envelopeQuery.for('update') : await envelopeQuery;
  const documents = await db
    .select({ id: esignDocuments.id, position: esignDocuments.position, signedAt: esignDocuments.signedAt })
    .from(esignDocuments)
    .where(eq(esignDocuments.envelopeId, head.envelopeId))
    .orderBy(asc(esignDocuments.position));
  const [document] = await db
    .select()
    .from(esignDocuments)
    .where(eq(esignDocuments.tokenHash, sha256Hex(token)));
  if (!envelope || !document) throw unknownToken();
  return { secret: parts.secret, envelope, document, documents };
}

/** The token of the envelope's next unsigned document: after this one, else the first before it. */
function nextToken(found: Pick<Found, 'secret' | 'documents'>, position: number): string | null {
  const unsigned = found.documents.filter((d) => d.signedAt === null && d.position !== position);
  const next = unsigned.find((d) => d.position > position) ?? unsigned[0];
  return next ? tokenOf(found.secret, next.position) : null;
}

const pageCounts = new Map<string, number>();
/** Page counts by the unsigned PDF's hash (the PDF never changes; parsing it on every read is waste). */
async function pageCountOf(document: DocumentRow): Promise<number> {
  const known = pageCounts.get(document.unsignedSha256);
  if (known !== undefined) return known;
  const count = await pdfPageCount(document.unsignedPdf);
  if (pageCounts.size > 500) pageCounts.clear();
  pageCounts.set(document.unsignedSha256, count);
  return count;
}

async function documentView(found: Found, document: DocumentRow): Promise<EsignDocument> {
  return {
    position: document.position,
    count: found.documents.length,
    kind: document.kind,
    title: document.title,
    fileName: document.fileName,
    pageCount: await pageCountOf(document),
    signed: document.signedAt !== null,
    signedAt: document.signedAt?.toISOString() ?? null,
  };
}

/** What the signing page shows for a token (GET /e-signature/{token}). */
export async function readSigningState(db: Db | Tx, token: string, nowMs: number): Promise<EsignState> {
  const found = await find(db, token, false);
  const status = statusAt(found.envelope, nowMs);
  return {
    envelope: {
      clientId: found.envelope.clientId,
      status,
      signerName: found.envelope.signerName,
      returnPath: found.envelope.returnPath,
      expiresAt: found.envelope.expiresAt.toISOString(),
    },
    document: await documentView(found, found.document),
    next: status === 'sent' ? nextToken(found, found.document.position) : null,
  };
}

/**
 * The PDF a token shows (GET /e-signature/{token}/pdf): the signed one once signed (whatever the
 * envelope became since), else the unsigned one while the envelope is open.
 */
export async function readSigningPdf(db: Db | Tx, token: string, nowMs: number): Promise<{ pdf: Buffer; fileName: string; signed: boolean }> {
  const found = await find(db, token, false);
  const d = found.document;
  if (d.signedPdf) return { pdf: d.signedPdf, fileName: d.fileName, signed: true };
  const status = statusAt(found.envelope, nowMs);
  if (status === 'voided') throw voided();
  if (status !== 'sent') throw expired();
  return { pdf: d.unsignedPdf, fileName: d.fileName, signed: false };
}

/* ------------------------------------------------------------------------------ signing */

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** The typed name and the strokes as the signer sent them, checked (VF with each bad field). */
export function checkSignature(input: { typedName: unknown; strokes: unknown; consent?: unknown }, requireConsent: boolean): { typedName: string; strokes: number[][][] } {
  const errors: CodedValidationError[] = [];
  let typedName = '';
  if (typeof input.typedName !== 'string' || input.typedName.trim() === '') {
    errors.push(vf('typedName', input.typedName === undefined || input.typedName === null || typeof input.typedName === 'string' ? VfCode.required : VfCode.wrongType));
  } else {
    typedName = input.typedName.trim().replace(/\s+/g, ' ');
    const length = [...typedName].length;
    if (CONTROL.test(input.typedName.trim())) errors.push(vf('typedName', VfCode.controlCharacters));
    else if (length < TYPED_NAME_LIMITS.min) errors.push(vf('typedName', VfCode.tooShort, { min: TYPED_NAME_LIMITS.min }));
    else if (length > TYPED_NAME_LIMITS.max) errors.push(vf('typedName', VfCode.tooLong, { max: TYPED_NAME_LIMITS.max }));
  }
  const strokes: number[][][] = [];
  const raw = input.strokes ?? [];
  if (!Array.isArray(raw)) errors.push(vf('strokes', VfCode.wrongType));
  else if (raw.length > SIGNATURE_LIMITS.maxStrokes) errors.push(vf('strokes', VfCode.tooManyItems, { max: SIGNATURE_LIMITS.maxStrokes }));
  else {
    strokes: for (const [i, stroke] of raw.entries()) {
      const at = `strokes.${i}`;
      if (!Array.isArray(stroke)) {
        errors.push(vf(at, VfCode.wrongType));
        break;
      }
      if (stroke.length < SIGNATURE_LIMITS.minPoints) {
        errors.push(vf(at, VfCode.tooFewItems, { min: SIGNATURE_LIMITS.minPoints }));
        break;
      }
      if (stroke.length > SIGNATURE_LIMITS.maxPoints) {
        errors.push(vf(at, VfCode.tooManyItems, { max: SIGNATURE_LIMITS.maxPoints }));
        break;
      }
      const points: number[][] = [];
      for (const [j, point] of stroke.entries()) {
        const p = `${at}.${j}`;
        if (!Array.isArray(point) || point.length !== 2 || !point.every((n) => typeof n === 'number' && Number.isFinite(n))) {
          errors.push(vf(p, VfCode.wrongType));
          break strokes;
        }
        const [x, y] = point as [number, number];
        if (x < 0 || y < 0) {
          errors.push(vf(p, VfCode.tooSmall, { min: 0 }));
          break strokes;
        }
        if (x > SIGNATURE_BOX.width || y > SIGNATURE_BOX.height) {
          errors.push(vf(p, VfCode.tooLarge, { max: x > SIGNATURE_BOX.width ? SIGNATURE_BOX.width : SIGNATURE_BOX.height }));
          break strokes;
        }
        // a tenth of a unit is finer than any pointer: the stored evidence stays small
        points.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
      }
      strokes.push(points);
    }
  }
  if (requireConsent && input.consent !== true) errors.push(vf('consent', VfCode.mustAccept));
  if (errors.length > 0) throw new EsignFailure(400, 'VF', 'Invalid request', errors);
  return { typedName, strokes };
}

export interface SignDocumentInput {
  token: string;
  typedName: unknown;
  /** [x, y] points in the 0-1000 x 0-300 box; [] when the typed name is adopted as the signature */
  strokes: unknown;
  /** the signer agreed that the electronic signature is the legal equivalent of a handwritten one (the page's checkbox) */
  consent: unknown;
  ip: string;
  userAgent: string;
  nowMs: number;
}

/**
 * Completes one document of an envelope in the caller's transaction: checks the token, the
 * envelope (open, not past its time), the document (not signed yet) and the signature, stamps the
 * PDF (stamp.ts), stores the evidence, lets the purpose's handler file it (the document id it
 * answers is kept) and completes the envelope once every document is signed. Throws EsignFailure
 * for what the signer is told; anything the handler throws rolls the whole signature back.
 */
export async function signDocument(tx: Tx, input: SignDocumentInput): Promise<EsignSigned> {
  const found = await find(tx, input.token, true);
  const { envelope, document } = found;
  if (document.signedAt !== null) throw alreadySigned();
  const status = statusAt(envelope, input.nowMs);
  if (status === 'voided') throw voided();
  if (status === 'expired') throw expired();
  if (status !== 'sent') throw alreadySigned();
  const { typedName, strokes } = checkSignature(input, true);
  const handler = signedDocumentHandler(envelope.purpose);
  if (!handler) throw new Error(`no signed-document handler for the purpose ${envelope.purpose}`);

  const signedAt = new Date(input.nowMs);
  const { [SIGNATURE_BOXES_KEY]: boxes, ...context } = envelope.context;
  const box = (boxes as Record<string, SignatureBox> | undefined)?.[String(document.position)] ?? null;
  const ip = input.ip.slice(0, 100);
  const userAgent = input.userAgent.slice(0, 500);
  // the PDF as the purpose has it now (read under its lock), when it differs from the envelope's: that one is signed and kept as the unsigned evidence
  const current = (await signingBaseReader(envelope.purpose)?.(tx, { context, kind: document.kind })) ?? null;
  const base = current && sha256Bytes(current) !== document.unsignedSha256 ? { pdf: Buffer.from(current), sha256: sha256Bytes(current) } : null;
  const signedPdf = await stampSignature({
    unsignedPdf: base?.pdf ?? document.unsignedPdf,
    unsignedSha256: base?.sha256 ?? document.unsignedSha256,
    signatureBox: box,
    title: document.title,
    envelopeClientId: envelope.clientId,
    typedName,
    signerEmail: envelope.signerEmail,
    strokes,
    signedAt,
    ip,
    userAgent,
  });
  const signedSha256 = sha256Bytes(signedPdf);
  const updated = await tx
    .update(esignDocuments)
    .set({
      ...(base ? { unsignedPdf: base.pdf, unsignedSha256: base.sha256 } : {}),
      signedPdf: Buffer.from(signedPdf),
      signedSha256,
      signedAt,
      signerTypedName: typedName,
      signatureStrokes: strokes,
      signerIp: ip,
      signerUserAgent: userAgent,
    })
    .where(and(eq(esignDocuments.id, document.id), isNull(esignDocuments.signedAt)))
    .returning({ id: esignDocuments.id });
  if (updated.length === 0) throw alreadySigned();

  const documentId = await handler(tx, {
    envelopeId: envelope.id,
    purpose: envelope.purpose,
    customerId: envelope.customerId,
    representativeId: envelope.representativeId,
    createdByUserId: envelope.createdByUserId,
    context,
    kind: document.kind,
    fileName: document.fileName,
    signedPdf,
    signedSha256,
    signedAt,
    signerTypedName: typedName,
    signerIp: ip,
  });
  if (documentId !== null) await tx.update(esignDocuments).set({ documentId }).where(eq(esignDocuments.id, document.id));

  const documents = found.documents.map((d) => (d.id === document.id ? { ...d, signedAt } : d));
  const complete = documents.every((d) => d.signedAt !== null);
  if (complete) await tx.update(esignEnvelopes).set({ status: 'completed', completedAt: signedAt }).where(eq(esignEnvelopes.id, envelope.id));
  const after = { ...found, documents };
  return {
    responseCode: '00',
    envelope: { status: complete ? 'completed' : 'sent' },
    document: await documentView(after, { ...document, signedAt }),
    next: complete ? null : nextToken(after, document.position),
  };
}
