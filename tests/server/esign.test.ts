/**
 * The built-in e-signature (server/modules/esign) against the real platform on PGlite: an
 * envelope started with the adapter in a transaction, read, shown and signed over REST
 * (api/esign.ts), the purpose's handler called once per document in the signing transaction, the
 * signed PDF stamped (the typed name under the signature, the certificate page) and hashed, and
 * the sign URLs' secrets kept out of the database and the log.
 *
 * Proof it can fail (2026-11-27): I dropped signDocument's "signed already" check and the
 * `signed_at is null` condition of its update: "pressing sign twice signs once" went red (a
 * second 200 where 409 was expected); I emptied platform/log.ts's secret path patterns and set
 * the routes' logLevel to info: "no token in the log" went red (the request lines carried the
 * token). Restored since.
 */
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { esignPdfPath, esignSignPath, esignStatePath, type EsignSigned, type EsignState } from '../../api/esign.ts';
import { customers } from '../../server/modules/customers/customers.tables.ts';
import { builtinSignatureAdapter, SIGNING_TTL_MS, signDocument } from '../../server/modules/esign/builtin.ts';
import { onDocumentSigned, type SignedDocument, type SignatureStart } from '../../server/modules/esign/esign.ts';
import { esignDocuments, esignEnvelopes } from '../../server/modules/esign/esign.tables.ts';
import { requestLogFields } from '../../server/modules/platform/log.ts';
import { readPdf } from '../pdf-text.ts';
import { createTestApp, postJson, type TestApp } from './harness.ts';

const PURPOSE = 'esignTest';
const START_MS = Date.UTC(2026, 10, 27, 12, 0, 0);
const PUBLIC_URL = 'https://bank.example';
const STROKES = [
  [
    [10, 250],
    [200, 40],
    [420, 260],
  ],
  [
    [500, 150],
    [980, 120],
  ],
];

let t: TestApp;
let clock = START_MS;
const log: string[] = [];
let customerId = 0;
const adapter = builtinSignatureAdapter({ publicUrl: `${PUBLIC_URL}/` });

/** What the test purpose's handler saw, and whether it should fail. */
const filed: SignedDocument[] = [];
let handlerThrows = false;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function formPdf(title: string, pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([612, 792]).drawText(`${title} page ${i + 1}`, { x: 50, y: 740, size: 14, font });
  return doc.save();
}

async function start(documents = 2, representativeId: number | null = null): Promise<SignatureStart> {
  const pdfs = await Promise.all(Array.from({ length: documents }, (_, i) => formPdf(`Form ${i + 1}`)));
  return t.db.transaction((tx) =>
    adapter.start(tx, {
      purpose: PURPOSE,
      customerId,
      representativeId,
      createdByUserId: null,
      signer: { name: 'Ivan Petrov', email: 'ivan@example.com' },
      documents: pdfs.map((pdf, i) => ({
        kind: i === 0 ? 'w8Ben' : 'taxResidencySelfCertification',
        title: i === 0 ? 'Form W-8BEN' : 'Tax residency self-certification',
        fileName: `form-${i + 1}.pdf`,
        pdf,
        ...(i === 0 ? { signatureBox: { page: 1, x: 60, y: 120, width: 240, height: 70 } } : {}),
      })),
      context: { certificationId: 42 },
      returnPath: '/self-certification',
      nowMs: clock,
    }),
  );
}

const tokenOf = (url: string) => url.slice(`${PUBLIC_URL}/e-sign/`.length);
const getState = (token: string) => t.app.inject({ method: 'GET', url: esignStatePath(token) });
const getPdf = (token: string) => t.app.inject({ method: 'GET', url: esignPdfPath(token) });
const sign = (token: string, body: Record<string, unknown> = {}) =>
  postJson(t.app, esignSignPath(token), { typedName: 'Иван Петров', strokes: STROKES, consent: true, ...body }, { headers: { 'user-agent': 'EsignTest/1.0' } });
const codes = (body: { validationErrors?: { param: string; code: string }[] }) => (body.validationErrors ?? []).map((e) => `${e.param}:${e.code}`);

beforeAll(async () => {
  onDocumentSigned(PURPOSE, async (_tx, signed) => {
    if (handlerThrows) throw new Error('the purpose failed to file the document');
    filed.push(signed);
    return null;
  });
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => log.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await createTestApp({ logStream: stream, now: () => clock, transferWorkers: false, globalRateLimitPerMinute: false });
  const [customer] = await t.db.select({ id: customers.id }).from(customers).limit(1);
  customerId = customer!.id;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  clock = START_MS;
  handlerThrows = false;
});

describe('built-in e-signature', () => {
  const tokens: string[] = [];
  let started: SignatureStart;

  it('start answers the envelope id and one sign URL per document, and keeps only hashes of their secrets', async () => {
    started = await start(2);
    expect(started.signUrls).toHaveLength(2);
    for (const url of started.signUrls) expect(url).toMatch(/^https:\/\/bank\.example\/e-sign\/[A-Za-z0-9_-]{43}~[12]$/);
    tokens.push(...started.signUrls.map(tokenOf));
    const [envelope] = await t.db.select().from(esignEnvelopes).where(eq(esignEnvelopes.clientId, started.clientId));
    expect(envelope).toMatchObject({ status: 'sent', purpose: PURPOSE, adapter: 'builtin', customerId, returnPath: '/self-certification' });
    expect(envelope!.expiresAt.getTime() - START_MS).toBe(SIGNING_TTL_MS);
    const rows = await t.db.select().from(esignDocuments).where(eq(esignDocuments.envelopeId, envelope!.id));
    const stored = JSON.stringify(rows.map(({ unsignedPdf, ...r }) => ({ ...r, size: unsignedPdf.length }))) + JSON.stringify(envelope);
    for (const token of tokens) {
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(token.split('~')[0]);
    }
    expect(rows.map((r) => r.tokenHash).sort()).toEqual(tokens.map((tk) => createHash('sha256').update(tk).digest('hex')).sort());
  });

  it('reads the first document, its place and the next one; serves its PDF inline, not cached', async () => {
    const res = await getState(tokens[0]!);
    expect(res.statusCode).toBe(200);
    const state = res.json() as EsignState;
    expect(state).toMatchObject({
      envelope: { clientId: started.clientId, status: 'sent', signerName: 'Ivan Petrov', returnPath: '/self-certification' },
      document: { position: 1, count: 2, kind: 'w8Ben', title: 'Form W-8BEN', fileName: 'form-1.pdf', pageCount: 2, signed: false, signedAt: null },
      next: tokens[1],
    });
    const pdf = await getPdf(tokens[0]!);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^inline; filename="form-1.pdf"/);
    expect(pdf.headers['cache-control']).toBe('no-store');
    expect(pdf.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('signs: the handler files the signed PDF once, in the same transaction; the PDF carries the name and the certificate', async () => {
    clock = START_MS + 60_000;
    const res = await sign(tokens[0]!);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as EsignSigned;
    expect(answer).toMatchObject({
      responseCode: '00',
      envelope: { status: 'sent' },
      document: { position: 1, signed: true, signedAt: new Date(clock).toISOString() },
      next: tokens[1],
    });
    expect(filed).toHaveLength(1);
    const f = filed[0]!;
    expect(f).toMatchObject({ purpose: PURPOSE, customerId, kind: 'w8Ben', fileName: 'form-1.pdf', signerTypedName: 'Иван Петров', context: { certificationId: 42 } });
    expect(f.context).not.toHaveProperty('esign.signatureBoxes');
    expect(f.signedSha256).toBe(sha256(f.signedPdf));
    const [row] = await t.db
      .select()
      .from(esignDocuments)
      .where(eq(esignDocuments.tokenHash, sha256(Buffer.from(tokens[0]!))));
    expect(row!.signedSha256).toBe(f.signedSha256);
    expect(sha256(row!.signedPdf!)).toBe(row!.signedSha256);
    expect(row).toMatchObject({ signerTypedName: 'Иван Петров', signerUserAgent: 'EsignTest/1.0', signatureStrokes: STROKES });
    expect(row!.signerIp).toBeTruthy();

    const read = readPdf(Buffer.from(f.signedPdf));
    expect(read.pages).toHaveLength(3);
    // the signature on the box's page (the second), the name and the time under it
    expect(read.pages[1]!.lines).toContain('Иван Петров');
    expect(read.pages[1]!.lines).toContain('Signed electronically 2026-11-27 12:01:00 UTC');
    const certificate = read.pages[2]!.lines;
    expect(certificate[0]).toBe('Signature certificate');
    for (const line of [
      'Form W-8BEN',
      started.clientId,
      row!.unsignedSha256,
      'Иван Петров',
      'ivan@example.com',
      '2026-11-27 12:01:00 UTC',
      row!.signerIp!,
      'EsignTest/1.0',
      'Drawn by the signer',
    ])
      expect(certificate).toContain(line);
    expect(read.fonts.some((font) => /DejaVuSans(-\d+)?$/.test(font))).toBe(true);

    // the PDF link now shows the signed copy
    const pdf = await getPdf(tokens[0]!);
    expect(sha256(pdf.rawPayload)).toBe(row!.signedSha256);
  });

  it('pressing sign twice (or a retry) signs once', async () => {
    const again = await sign(tokens[0]!);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ responseCode: 'VF' });
    expect(codes(again.json())).toEqual(['token:alreadyAccepted']);
    const both = await Promise.all([sign(tokens[1]!, { typedName: 'Ivan Petrov', strokes: [] }), sign(tokens[1]!, { typedName: 'Ivan Petrov', strokes: [] })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(filed).toHaveLength(2);
    const done = both.find((r) => r.statusCode === 200)!.json() as EsignSigned;
    expect(done).toMatchObject({ envelope: { status: 'completed' }, document: { position: 2, count: 2 }, next: null });
    const [envelope] = await t.db.select().from(esignEnvelopes).where(eq(esignEnvelopes.clientId, started.clientId));
    expect(envelope).toMatchObject({ status: 'completed' });
    // the typed name adopted as the signature: drawn in the italic face, said on the certificate
    const read = readPdf(Buffer.from(filed[1]!.signedPdf));
    expect(read.fonts.some((font) => font.includes('DejaVuSerif-Italic'))).toBe(true);
    expect(read.pages.at(-1)!.lines).toContain('Typed name adopted as the signature');
    const state = (await getState(tokens[0]!)).json() as EsignState;
    expect(state).toMatchObject({ envelope: { status: 'completed' }, document: { signed: true }, next: null });
  });

  it('an unknown, malformed or guessed token is not found', async () => {
    const [secret] = tokens[0]!.split('~');
    for (const token of ['nope', `${'A'.repeat(43)}~1`, `${secret}~3`, `${secret}~1x`, `${secret}.1`]) {
      for (const res of [await getState(token), await getPdf(token), await sign(token)]) {
        expect(res.statusCode, token).toBe(404);
        expect(res.json()).toMatchObject({ responseCode: 'ENOA' });
      }
    }
  });

  it('checks the signature: the typed name, the strokes in the box, the consent', async () => {
    const { signUrls } = await start(1);
    const token = tokenOf(signUrls[0]!);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ typedName: 'A' }, ['typedName:tooShort']],
      [{ typedName: 'x'.repeat(101) }, ['typedName:tooLong']],
      [{ typedName: 'Ivan\u0007Petrov' }, ['typedName:controlCharacters']],
      [{ typedName: '   ' }, ['typedName:required']],
      [{ strokes: [[[1, 1]]] }, ['strokes.0:tooFewItems']],
      [
        {
          strokes: [
            [
              [1, 1],
              [1001, 5],
            ],
          ],
        },
        ['strokes.0.1:tooLarge'],
      ],
      [
        {
          strokes: [
            [
              [1, 1],
              [5, 301],
            ],
          ],
        },
        ['strokes.0.1:tooLarge'],
      ],
      [
        {
          strokes: [
            [
              [-1, 1],
              [5, 3],
            ],
          ],
        },
        ['strokes.0.0:tooSmall'],
      ],
      [
        {
          strokes: Array.from({ length: 51 }, () => [
            [1, 1],
            [2, 2],
          ]),
        },
        ['strokes:tooManyItems'],
      ],
      [{ strokes: [Array.from({ length: 1001 }, () => [1, 1])] }, ['strokes.0:tooManyItems']],
      [{ strokes: 'drawn' }, ['strokes:wrongType']],
      [{ consent: false }, ['consent:mustAccept']],
    ];
    for (const [body, expected] of cases) {
      const res = await sign(token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(codes(res.json()), JSON.stringify(body)).toEqual(expected);
    }
    expect(filed).toHaveLength(2);
  });

  it('an expired envelope answers its own code; a replaced one says it was voided', async () => {
    const first = await start(1);
    const token = tokenOf(first.signUrls[0]!);
    clock = START_MS + SIGNING_TTL_MS;
    expect(((await getState(token)).json() as EsignState).envelope.status).toBe('expired');
    const late = await sign(token);
    expect(late.statusCode).toBe(410);
    expect(codes(late.json())).toEqual(['token:codeExpired']);
    expect((await getPdf(token)).statusCode).toBe(410);

    clock = START_MS;
    const old = await start(1);
    await start(1);
    const replaced = await sign(tokenOf(old.signUrls[0]!));
    expect(replaced.statusCode).toBe(410);
    expect(codes(replaced.json())).toEqual(['token:requestNotActive']);
    expect(((await getState(tokenOf(old.signUrls[0]!))).json() as EsignState).envelope.status).toBe('voided');
    expect(filed).toHaveLength(2);
  });

  it('a handler that throws leaves nothing signed; signing again then works', async () => {
    const { clientId, signUrls } = await start(1);
    const token = tokenOf(signUrls[0]!);
    handlerThrows = true;
    const failed = await sign(token);
    expect(failed.statusCode).toBe(500);
    const [envelope] = await t.db.select().from(esignEnvelopes).where(eq(esignEnvelopes.clientId, clientId));
    const [row] = await t.db
      .select()
      .from(esignDocuments)
      .where(and(eq(esignDocuments.envelopeId, envelope!.id), eq(esignDocuments.position, 1)));
    expect(envelope!.status).toBe('sent');
    expect(row).toMatchObject({ signedAt: null, signedPdf: null, signedSha256: null, signerTypedName: null });
    handlerThrows = false;
    const ok = await sign(token);
    expect(ok.statusCode).toBe(200);
    expect(filed).toHaveLength(3);
  });

  it("signDocument works in a caller's transaction (the demo seed signs with it)", async () => {
    const { signUrls } = await start(1);
    const answer = await t.db.transaction((tx) =>
      signDocument(tx, { token: tokenOf(signUrls[0]!), typedName: 'Ivan Petrov', strokes: [], consent: true, ip: '192.0.2.1', userAgent: 'seed', nowMs: clock }),
    );
    expect(answer).toMatchObject({ envelope: { status: 'completed' }, document: { signed: true } });
    expect(filed.at(-1)).toMatchObject({ signerIp: '192.0.2.1' });
  });

  it('no token in the log', async () => {
    expect(log.length).toBeGreaterThan(0);
    const all = log.join('\n');
    expect(all).toContain('e-signature route failed');
    for (const token of tokens) expect(all).not.toContain(token.split('~')[0]);
    expect(all).not.toMatch(/e-signature\/[A-Za-z0-9_-]{20}/);
    // the one line per request (at info, which these routes skip), and an errored request's line alike
    expect(requestLogFields({ method: 'GET', url: esignPdfPath(tokens[0]!) }, 500, 1).path).toBe('/api/v1/e-signature/[redacted]/pdf');
    expect(requestLogFields({ method: 'GET', url: `/e-sign/${tokens[0]!}` }, 200, 1).path).toBe('/e-sign/[redacted]');
  });
});
