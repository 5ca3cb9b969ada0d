/**
 * Multipart uploads at the edge (issue 11 finding 6): only methods whose contract takes files
 * accept multipart, only after sign-in, and a refused body is answered without being read; file
 * parts stream to temporary files under a per-call and a process-wide cap, and are deleted after
 * the call.
 */
import { VfCode, vf } from '../../api/errors.ts';
import { mkdtempSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import type { MethodDef } from '../../api/method.ts';
import type { MethodHandler, UploadedFile } from '../../server/modules/method-types.ts';
import { UPLOAD_RETRY_AFTER_S, UploadMessages } from '../../server/modules/platform/uploads.ts';
import { createTestApp, signIn, type TestApp } from './harness.ts';

const REQUEST_MAX_BYTES = 1_000_000;
const IN_FLIGHT_MAX_BYTES = 1_500_000;

const ran: string[] = [];
/** what the file method's handler received */
const received: UploadedFile[][] = [];
/** the file method's handler waits on this gate when one is set */
let gate: { entered: () => void; release: Promise<void> } | null = null;

const overrides: Record<string, MethodHandler<MethodDef>> = {
  dictionaries: (async () => {
    ran.push('dictionaries');
    return {};
  }) as MethodHandler<MethodDef>,
  termsList: (async () => {
    ran.push('termsList');
    return {};
  }) as MethodHandler<MethodDef>,
  customerJumioDocumentCreate: (async (_input, ctx) => {
    ran.push('customerJumioDocumentCreate');
    received.push(ctx.files);
    if (gate) {
      const g = gate;
      gate = null;
      g.entered();
      await g.release;
    }
    return {};
  }) as MethodHandler<MethodDef>,
};

let t: TestApp;
let port: number;
let token: string;
let uploadDir: string;

beforeAll(async () => {
  uploadDir = mkdtempSync(join(tmpdir(), 'wlb-uploads-test-'));
  t = await createTestApp({
    handlerOverrides: overrides,
    validateResponses: false,
    transferWorkers: false,
    globalRateLimitPerMinute: false,
    uploads: { requestMaxBytes: REQUEST_MAX_BYTES, inFlightMaxBytes: IN_FLIGHT_MAX_BYTES },
    uploadDir,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
  token = (await signIn(t.app, 'boris')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const document = { categoryId: 1, documentTypeId: 1, number: 'LT1234567', issuedDate: '2022-03-01', expiresDate: '2032-03-01' };

function multipart(files: { field: string; content: Buffer }[], data: Record<string, unknown> = document) {
  const boundary = `----wlb${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${JSON.stringify(data)}\r\n`)];
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.field}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), f.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { boundary, body: Buffer.concat(chunks) };
}

const upload = (files: { field: string; content: Buffer }[]) => {
  const { boundary, body } = multipart(files);
  return t.app.inject({
    method: 'POST',
    url: `${API_VERSION_PATH}/?customerJumioDocumentCreate`,
    payload: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  });
};

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(bytes - 9, 0x20)]);

/**
 * Sends the headers of a multipart request declaring `declaredBytes`, and only its first KB; resolves
 * with the status line once the platform answers. A platform that read (or buffered) the body before
 * answering would never answer this request: the test would time out.
 */
function answerBeforeBody(name: string, declaredBytes: number, authorization?: string): Promise<{ status: number; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const first = Buffer.from(`------x\r\nContent-Disposition: form-data; name="f"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${'x'.repeat(900)}`);
    let answer = '';
    socket.on('connect', () => {
      socket.write(
        `POST ${API_VERSION_PATH}/?${name} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=----x\r\n` +
          `Content-Length: ${declaredBytes}\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}\r\n`,
      );
      socket.write(first);
    });
    socket.on('data', (chunk) => {
      answer += String(chunk);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        socket.destroy();
        resolve({ status: Number(status[1]), sentBytes: first.length });
      }
    });
    socket.on('error', reject);
  });
}

describe('multipart before reading the body', () => {
  it('24 parallel 10 MB bodies to a public method and to a method without sign-in are answered unread', async () => {
    ran.length = 0;
    const tenMb = 10 * 1024 * 1024;
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? answerBeforeBody('dictionaries', tenMb) : answerBeforeBody('customerJumioDocumentCreate', tenMb))),
    );
    for (const [i, a] of answers.entries()) {
      expect(a.status, `request ${i}`).toBe(i % 2 === 0 ? 415 : 401);
      expect(a.sentBytes).toBeLessThan(1024);
    }
    expect(ran).toEqual([]);
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('a signed-in call of a method that takes no files is answered unread too', async () => {
    const a = await answerBeforeBody('termsList', 10 * 1024 * 1024, `Bearer ${token}`);
    expect(a.status).toBe(415);
    expect(ran).toEqual([]);
  });
});

describe('file parts', () => {
  it('reach the handler of a method that takes files, and are deleted after the call', async () => {
    received.length = 0;
    const res = await upload([{ field: 'front', content: pdf(300_000) }, { field: 'back', content: pdf(200_000) }]);
    expect(res.json().responseCode).toBe('00');
    expect(received[0]!.map((f) => [f.fieldName, f.content.length])).toEqual([
      ['front', 300_000],
      ['back', 200_000],
    ]);
    expect(received[0]![0]!.content.subarray(0, 8).toString()).toBe('%PDF-1.7');
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('over the per-call cap: VF on files, the handler never runs, nothing kept', async () => {
    ran.length = 0;
    const res = await upload([{ field: 'front', content: pdf(600_000) }, { field: 'back', content: pdf(600_000) }]);
    expect(res.json()).toEqual({
      responseCode: 'VF',
      responseDescription: 'Invalid request',
      validationErrors: [vf('files', VfCode.requestTooLarge, { maxMb: Math.floor(REQUEST_MAX_BYTES / 1_000_000) })],
    });
    expect(ran).toEqual([]);
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('over the process-wide cap: 503 with Retry-After while another call holds its bytes, accepted once it ended', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    gate = { entered, release: new Promise<void>((resolve) => (release = resolve)) };
    const holding = upload([{ field: 'front', content: pdf(900_000) }]);
    await inHandler;
    ran.length = 0;
    const refused = await upload([{ field: 'front', content: pdf(900_000) }]);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(UPLOAD_RETRY_AFTER_S));
    expect(refused.json()).toEqual({ responseCode: 'UE', responseDescription: UploadMessages.busy });
    expect(ran).toEqual([]);
    release();
    expect((await holding).json().responseCode).toBe('00');
    expect((await upload([{ field: 'front', content: pdf(900_000) }])).json().responseCode).toBe('00');
    expect(readdirSync(uploadDir)).toEqual([]);
  });
});
