/**
 * A company's statements, its board resolution and its representatives' links
 * (api/business-declarations.ts) on the platform, through HTTP on the seeded demo database
 * (Northwind): the studio and streaming declarations and the prohibited-escort statement (asked by
 * the company's industry; personal declarations; the current version only; once; who, when, from
 * where), the resolution for chosen directors (a PDF; directors of the company only) and its
 * submission (a company document, the directors told), and the link of a representative who is not
 * a user (issued by a user with full rights; fromEmail/authSecret authenticating only the
 * representative's methods; wrong, expired and replaced links refused alike; the identity job and
 * its decision moving the representative's status). Rights, bad input and nothing half-written.
 */
import { createHash } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Statement } from '../../api/business-declarations.ts';
import type { Representative } from '../../api/business.ts';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import { NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { businessCompanies, businessRepresentativeDocuments, businessRepresentatives } from '../../server/modules/business/business.tables.ts';
import { businessRepresentativeLinks, businessStatementAcceptances } from '../../server/modules/business/declarations.tables.ts';
import { STATEMENT_TEXTS } from '../../server/modules/business/statement-texts.ts';
import { sendRepresentativeLinks } from '../../server/modules/business/representative-link.ts';
import { customers } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { customerDocuments, identityJobs } from '../../server/modules/profile/profile.tables.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

let t: TestApp;
let northwindId: number;
let owner: string;
let clerk: string;
let viewer: string;
let admin: string;
const rep: Record<'olivia' | 'daniel' | 'harbour' | 'marta' | 'carl' | 'other', number> = { olivia: 0, daniel: 0, harbour: 0, marta: 0, carl: 0, other: 0 };

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false });
  const [nw] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = nw!.id;
  [owner, clerk, viewer, admin] = (await Promise.all((['owner', 'clerk', 'viewer', 'admin'] as const).map((k) => signIn(t.app, k)))).map((s) => s.accessToken) as [
    string,
    string,
    string,
    string,
  ];
  const rows = await t.db.select().from(businessRepresentatives).where(eq(businessRepresentatives.customerId, northwindId));
  const find = (name: string) => rows.find((r) => r.firstName === name || r.companyName === name)!.id;
  Object.assign(rep, { olivia: find('Olivia'), daniel: find('Daniel'), harbour: find('Harbour Holdings Ltd'), marta: find('Marta'), carl: find('Carl') });
  // Another company with a director of its own: its ids are not Northwind's.
  const [other] = await t.db.insert(customers).values({ customerType: 'business', businessName: 'Elsewhere Ltd' }).returning({ id: customers.id });
  const [otherRep] = await t.db
    .insert(businessRepresentatives)
    .values({ customerId: other!.id, kind: 'person', positionIds: [2], firstName: 'Erin', lastName: 'Else', email: 'erin@elsewhere.test' })
    .returning({ id: businessRepresentatives.id });
  rep.other = otherRep!.id;
});
afterAll(async () => {
  await t?.close();
});

type Body = Record<string, unknown> & { responseCode: string };
/** A call acting for Northwind. */
async function nw(name: string, token: string, body: Record<string, unknown> = {}): Promise<Body> {
  return (await callMethod(t.app, name, body, { token, headers: { [CUSTOMER_ID_HEADER]: String(northwindId) } })).body;
}
const vfCodes = (body: Body) => (body.validationErrors as { param: string; code: string }[]).map((e) => `${e.param}:${e.code}`);
const setIndustry = (industry: number | null) =>
  t.db
    .update(businessCompanies)
    .set({ financialDetail: { monthlyDepositAmount: 250000, monthlyWithdrawalAmount: 200000, currency: 'GBP', ...(industry === null ? {} : { industry }) } })
    .where(eq(businessCompanies.customerId, northwindId));
const acceptanceCount = async () => (await t.db.select({ n: count() }).from(businessStatementAcceptances).where(eq(businessStatementAcceptances.customerId, northwindId)))[0]!.n;
const current = { studio: STATEMENT_TEXTS.studio.version, streaming: STATEMENT_TEXTS.streaming.version, escort: STATEMENT_TEXTS.prohibitedEscort.version };

describe('statements of a company outside the adult industry group', () => {
  it('read as not required (with their texts), and cannot be sent', async () => {
    await setIndustry(102); // wholesale
    const got = await nw('businessDeclarationsGet', viewer, { businessRepresentativeId: rep.olivia });
    expect(got).toMatchObject({ responseCode: '00', businessRepresentativeId: rep.olivia, industryId: 102, required: false });
    const declarations = got.declarations as Statement[];
    expect(declarations.map((d) => [d.kind, d.required, d.version, d.language, d.accepted])).toEqual([
      ['studio', false, current.studio, 'en', null],
      ['streaming', false, current.streaming, 'en', null],
    ]);
    expect(declarations[0]!.text).toContain(NORTHWIND_NAME);
    const sent = await nw('businessDeclarationsSend', owner, { businessRepresentativeId: rep.olivia, declarations: [{ kind: 'studio', version: current.studio }] });
    expect(vfCodes(sent)).toEqual(['declarations.0.kind:declarationNotRequired']);
    expect(await nw('prohibitedEscortStatementGet', viewer)).toMatchObject({ required: false, statement: { kind: 'prohibitedEscort', required: false, accepted: null } });
    expect(vfCodes(await nw('prohibitedEscortStatementSend', owner, { version: current.escort }))).toEqual(['version:declarationNotRequired']);
    expect(await acceptanceCount()).toBe(0);
  });
});

describe('the declarations of a webcam studio (industry 402)', () => {
  beforeAll(async () => {
    await setIndustry(402);
  });

  it('are both asked of each representative', async () => {
    const got = await nw('businessDeclarationsGet', viewer, { businessRepresentativeId: rep.daniel });
    expect(got).toMatchObject({ required: true, industryId: 402 });
    expect((got.declarations as Statement[]).map((d) => [d.kind, d.required, d.accepted])).toEqual([
      ['studio', true, null],
      ['streaming', true, null],
    ]);
  });

  it('are refused to a read-only user (13), for another person (VF), for another company’s representative (ENOA); nothing written', async () => {
    const both = [
      { kind: 'studio', version: current.studio },
      { kind: 'streaming', version: current.streaming },
    ];
    expect((await nw('businessDeclarationsSend', viewer, { businessRepresentativeId: rep.carl, declarations: both })).responseCode).toBe('13');
    // clerk (full rights) cannot declare in Olivia's name, nor in Daniel's (not a user) or Harbour's (a company)
    for (const id of [rep.olivia, rep.daniel, rep.harbour]) {
      expect(vfCodes(await nw('businessDeclarationsSend', clerk, { businessRepresentativeId: id, declarations: both }))).toEqual([
        'businessRepresentativeId:notYourRepresentative',
      ]);
    }
    expect((await nw('businessDeclarationsSend', owner, { businessRepresentativeId: rep.other, declarations: both })).responseCode).toBe('ENOA');
    expect((await nw('businessDeclarationsGet', owner, { businessRepresentativeId: rep.other })).responseCode).toBe('ENOA');
    expect(await acceptanceCount()).toBe(0);
  });

  it('answer VF with the field on bad input, and a send with one bad entry records none', async () => {
    const send = (declarations: unknown, id: unknown = rep.olivia) => nw('businessDeclarationsSend', owner, { businessRepresentativeId: id, declarations });
    expect(vfCodes(await send([]))).toEqual(['declarations:required']);
    expect(
      vfCodes(
        await send([
          { kind: 'studio', version: current.studio },
          { kind: 'studio', version: current.studio },
        ]),
      ),
    ).toEqual(['declarations:duplicateEntry']);
    expect(vfCodes(await send([{ kind: 'escort', version: 'x' }]))).toEqual(['declarations.0.kind:notAllowed']);
    expect(vfCodes(await send([{ kind: 'studio', version: '' }]))).toEqual(['declarations.0.version:required']);
    expect(vfCodes(await send([{ kind: 'studio', version: current.studio }], 0))).toEqual(['businessRepresentativeId:notId']);
    expect(vfCodes(await nw('businessDeclarationsSend', owner, { declarations: [{ kind: 'studio', version: current.studio }] }))).toEqual(['businessRepresentativeId:required']);
    // the studio entry is good, the streaming one names an old text: nothing is recorded
    expect(
      vfCodes(
        await send([
          { kind: 'studio', version: current.studio },
          { kind: 'streaming', version: 'streaming-2025-1' },
        ]),
      ),
    ).toEqual(['declarations.1.version:textNotCurrent']);
    expect(await acceptanceCount()).toBe(0);
  });

  it('are accepted once by the representative themself: who, when, from where, which text', async () => {
    const sent = await nw('businessDeclarationsSend', owner, {
      businessRepresentativeId: rep.olivia,
      declarations: [
        { kind: 'studio', version: current.studio },
        { kind: 'streaming', version: current.streaming },
      ],
    });
    expect(sent.responseCode).toBe('00');
    const declarations = sent.declarations as Statement[];
    for (const d of declarations) expect(d.accepted).toMatchObject({ acceptedByName: 'Olivia Owens', textVersion: d.version });
    const rows = await t.db.select().from(businessStatementAcceptances).where(eq(businessStatementAcceptances.representativeId, rep.olivia));
    expect(rows.map((r) => r.kind).sort()).toEqual(['streaming', 'studio']);
    const studio = declarations.find((d) => d.kind === 'studio')!;
    expect(rows.find((r) => r.kind === 'studio')).toMatchObject({
      textVersion: current.studio,
      textSha256: createHash('sha256').update(`${studio.title}\n\n${studio.text}`).digest('hex'),
      ip: '127.0.0.1',
    });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'businessDeclarationsSend')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ customerId: northwindId, details: { representativeId: rep.olivia } });
    // a second send is refused; the other representatives' declarations are still open
    expect(vfCodes(await nw('businessDeclarationsSend', owner, { businessRepresentativeId: rep.olivia, declarations: [{ kind: 'studio', version: current.studio }] }))).toEqual([
      'declarations.0.kind:alreadyAccepted',
    ]);
    expect(((await nw('businessDeclarationsGet', viewer, { businessRepresentativeId: rep.carl })).declarations as Statement[]).every((d) => d.accepted === null)).toBe(true);
    expect(await acceptanceCount()).toBe(2);
  });

  it('the prohibited-escort statement: a user with change rights accepts it for the company, once', async () => {
    expect((await nw('prohibitedEscortStatementGet', viewer)).required).toBe(true);
    expect((await nw('prohibitedEscortStatementSend', viewer, { version: current.escort })).responseCode).toBe('13');
    // an administrator may act for the company's records, not speak for it
    expect(await nw('prohibitedEscortStatementSend', admin, { version: current.escort })).toMatchObject({
      responseCode: '13',
      responseDescription: 'A statement is accepted by a user of the company',
    });
    expect(vfCodes(await nw('prohibitedEscortStatementSend', clerk, { version: 'escort-2020-1' }))).toEqual(['version:textNotCurrent']);
    expect(vfCodes(await nw('prohibitedEscortStatementSend', clerk, {}))).toEqual(['version:required']);
    const sent = await nw('prohibitedEscortStatementSend', clerk, { version: current.escort });
    expect(sent).toMatchObject({ responseCode: '00', required: true, statement: { accepted: { acceptedByName: 'Carl Clarke', textVersion: current.escort } } });
    expect(vfCodes(await nw('prohibitedEscortStatementSend', owner, { version: current.escort }))).toEqual(['version:alreadyAccepted']);
    expect((await nw('prohibitedEscortStatementGet', viewer)).statement).toMatchObject({ accepted: { acceptedByName: 'Carl Clarke' } });
    expect(await acceptanceCount()).toBe(3);
  });

  it('two sends of the same declarations at once record them once', async () => {
    const body = {
      businessRepresentativeId: rep.carl,
      declarations: [
        { kind: 'studio', version: current.studio },
        { kind: 'streaming', version: current.streaming },
      ],
    };
    const answers = await Promise.all([nw('businessDeclarationsSend', clerk, body), nw('businessDeclarationsSend', clerk, body)]);
    expect(answers.map((a) => a.responseCode).sort()).toEqual(['00', 'VF']);
    expect(vfCodes(answers.find((a) => a.responseCode === 'VF')!)).toEqual(['declarations.0.kind:alreadyAccepted', 'declarations.1.kind:alreadyAccepted']);
    expect(await acceptanceCount()).toBe(5);
  });
});

describe('the board resolution', () => {
  it('resolutionGet: a PDF for the chosen directors, to anyone who may read the company', async () => {
    const got = await nw('resolutionGet', viewer, { businessRepresentativeIds: [rep.olivia, rep.daniel] });
    expect(got.responseCode).toBe('00');
    const file = got.resolution as { contentBase64: string; sha256: string; sizeBytes: number; fileName: string; directors: { id: number; firstName: string }[] };
    const pdf = Buffer.from(file.contentBase64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBe(file.sizeBytes);
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(file.sha256);
    expect(file.fileName).toMatch(/^board-resolution-northwind-trading-ltd-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(file.directors.map((d) => [d.id, d.firstName])).toEqual([
      [rep.olivia, 'Olivia'],
      [rep.daniel, 'Daniel'],
    ]);
  });

  it('names directors of the company only (VF notDirector naming each entry), no id twice, at least one', async () => {
    const get = (ids: unknown) => nw('resolutionGet', owner, { businessRepresentativeIds: ids });
    // Marta directs Harbour, not Northwind; Carl is no director; Erin is another company's
    expect(vfCodes(await get([rep.olivia, rep.marta, rep.carl, rep.other]))).toEqual([
      'businessRepresentativeIds.1:notDirector',
      'businessRepresentativeIds.2:notDirector',
      'businessRepresentativeIds.3:notDirector',
    ]);
    expect(vfCodes(await get([rep.olivia, rep.olivia]))).toEqual(['businessRepresentativeIds:duplicateEntry']);
    expect(vfCodes(await get([]))).toEqual(['businessRepresentativeIds:required']);
    expect(vfCodes(await get(['1']))).toEqual(['businessRepresentativeIds.0:notId']);
  });

  it('resolutionSend: stored as the company’s board resolution for review, linked to the directors, who are told; refused whole on a bad id', async () => {
    const documentsBefore = (await t.db.select({ n: count() }).from(customerDocuments).where(eq(customerDocuments.customerId, northwindId)))[0]!.n;
    const mailsBefore = (await t.db.select({ n: count() }).from(outbox))[0]!.n;
    expect((await nw('resolutionSend', viewer, { businessRepresentativeIds: [rep.olivia] })).responseCode).toBe('13');
    expect(vfCodes(await nw('resolutionSend', owner, { businessRepresentativeIds: [rep.olivia, rep.marta] }))).toEqual(['businessRepresentativeIds.1:notDirector']);
    expect((await t.db.select({ n: count() }).from(customerDocuments).where(eq(customerDocuments.customerId, northwindId)))[0]!.n).toBe(documentsBefore);
    expect((await t.db.select({ n: count() }).from(outbox))[0]!.n).toBe(mailsBefore);

    const sent = await nw('resolutionSend', clerk, { businessRepresentativeIds: [rep.olivia, rep.daniel] });
    expect(sent.responseCode).toBe('00');
    const document = sent.document as { id: number; categoryId: number; statusId: number };
    expect(document).toMatchObject({ categoryId: 6, statusId: 0 });
    const [row] = await t.db.select().from(customerDocuments).where(eq(customerDocuments.id, document.id));
    expect(row).toMatchObject({ customerId: northwindId, documentTypeId: 42, mimeType: 'application/pdf' });
    expect(row!.content.subarray(0, 5).toString()).toBe('%PDF-');
    const links = await t.db.select().from(businessRepresentativeDocuments).where(eq(businessRepresentativeDocuments.documentId, document.id));
    expect(links.map((l) => l.representativeId).sort((a, b) => a - b)).toEqual([rep.olivia, rep.daniel].sort((a, b) => a - b));
    expect(sent.notified).toEqual([
      { representativeId: rep.olivia, sentTo: 'o***@northwind.test' },
      { representativeId: rep.daniel, sentTo: 'd***@northwind.test' },
    ]);
    const mails = await t.db
      .select()
      .from(outbox)
      .where(inArray(outbox.recipient, ['owner@northwind.test', 'daniel.reed@northwind.test']))
      .orderBy(desc(outbox.id))
      .limit(2);
    expect(mails.map((m) => m.subject)).toEqual(Array(2).fill(expect.stringContaining('a board resolution naming you was submitted')));
    // the directors now show it among their documents
    const daniel = await nw('businessRepresentativeInfoGet', viewer, { id: rep.daniel });
    expect((daniel.representative as Representative).documents.map((d) => d.id)).toContain(document.id);
  });
});

describe("a representative's link", () => {
  let secret = '';
  const danielEmail = 'daniel.reed@northwind.test';
  const asRepresentative = (pair: Record<string, unknown>, name = 'identityVerificationRepresentative') => callMethod(t.app, name, pair);

  async function lastSecret(to: string): Promise<string> {
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.recipient, to)).orderBy(desc(outbox.id)).limit(1);
    const found = /\/self-certification-representative\?authSecret=([A-Za-z0-9_-]+)/.exec(mail?.body ?? '')?.[1];
    if (!found) throw new Error(`no link mailed to ${to}`);
    return found;
  }

  it('is sent by a user with full rights to a person who is not a user and has an e-mail', async () => {
    expect((await nw('businessRepresentativeLinkSend', viewer, { representativeId: rep.daniel })).responseCode).toBe('13');
    expect(vfCodes(await nw('businessRepresentativeLinkSend', owner, { representativeId: rep.olivia }))).toEqual(['representativeId:representativeIsUser']);
    expect(vfCodes(await nw('businessRepresentativeLinkSend', owner, { representativeId: rep.harbour }))).toEqual(['representativeId:notAllowed']);
    expect((await nw('businessRepresentativeLinkSend', owner, { representativeId: rep.other })).responseCode).toBe('ENOA');
    const sent = await nw('businessRepresentativeLinkSend', clerk, { representativeId: rep.daniel });
    expect(sent).toMatchObject({ responseCode: '00', sentTo: 'd***@northwind.test' });
    secret = await lastSecret(danielEmail);
    // only its hash is kept
    const [link] = await t.db
      .select()
      .from(businessRepresentativeLinks)
      .where(eq(businessRepresentativeLinks.representativeId, rep.daniel))
      .orderBy(desc(businessRepresentativeLinks.id))
      .limit(1);
    expect(link!.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(await t.db.select().from(auditLog).where(eq(auditLog.method, 'businessRepresentativeLinkSend')))).not.toContain(secret);
  });

  it('wrong secret, wrong e-mail, one field alone, no link: refused before anything changes', async () => {
    expect(await asRepresentative({ fromEmail: danielEmail, authSecret: `${secret.slice(0, -2)}xx` })).toMatchObject({ status: 401, body: { responseCode: 'AU' } });
    expect(await asRepresentative({ fromEmail: 'marta.lind@harbour.test', authSecret: secret })).toMatchObject({ status: 401, body: { responseCode: 'AU' } });
    expect(vfCodes((await asRepresentative({ authSecret: secret })).body)).toEqual(['fromEmail:required']);
    expect(vfCodes((await asRepresentative({ fromEmail: danielEmail })).body)).toEqual(['authSecret:required']);
    expect(await asRepresentative({})).toMatchObject({ status: 401, body: { responseCode: 'AU' } });
    // a signed-in user is not the representative either
    expect((await callMethod(t.app, 'identityVerificationRepresentative', {}, { token: owner })).status).toBe(401);
    const [danielRow] = await t.db.select().from(businessRepresentatives).where(eq(businessRepresentatives.id, rep.daniel));
    expect(danielRow!.identityStatus).toBe('none');
  });

  it('authenticates only the representative’s methods: any other method refuses the fields', async () => {
    for (const name of ['businessInfoGet', 'businessDeclarationsGet', 'getCustomerInfo']) {
      const res = await asRepresentative({ fromEmail: danielEmail, authSecret: secret }, name);
      expect(res.body.responseCode, name).not.toBe('00');
      if (res.body.responseCode === 'VF') expect(vfCodes(res.body), name).toEqual(expect.arrayContaining(['fromEmail:fieldNotTaken', 'authSecret:fieldNotTaken']));
      else expect(res.status, name).toBe(401);
    }
    const withToken = await nw('businessInfoGet', owner, { fromEmail: danielEmail, authSecret: secret });
    expect(vfCodes(withToken)).toEqual(['fromEmail:fieldNotTaken', 'authSecret:fieldNotTaken']);
  });

  it('identityVerificationRepresentative starts a job for the representative, whose status moves with its decision', async () => {
    const started = await asRepresentative({ fromEmail: 'Daniel.Reed@Northwind.test', authSecret: secret });
    expect(started.body).toMatchObject({
      responseCode: '00',
      provider: 'review',
      representative: { id: rep.daniel, firstName: 'Daniel', lastName: 'Reed', companyName: NORTHWIND_NAME, identityVerificationStatus: 'pending' },
    });
    const workflowRunId = started.body.workflowRunId as string;
    expect(started.body.url).toBe(`/identity-verification/${workflowRunId}/${started.body.token as string}`);
    const [job] = await t.db.select().from(identityJobs).where(eq(identityJobs.workflowRunId, workflowRunId));
    expect(job).toMatchObject({ customerId: northwindId, kind: 'identity', status: 'pending', createdByUserId: null });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'identityVerificationRepresentative')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ userId: null, customerId: northwindId, details: { representativeId: rep.daniel, workflowRunId } });
    expect(JSON.stringify(audit)).not.toContain(secret);
    const status = async () => ((await nw('businessRepresentativeInfoGet', viewer, { id: rep.daniel })).representative as Representative).identityVerificationStatus;
    expect(await status()).toBe('pending');

    // a second start replaces the first job; the administrator rejects the second, then a third is approved
    const again = await asRepresentative({ fromEmail: danielEmail, authSecret: secret });
    expect(again.body.responseCode).toBe('00');
    expect((await t.db.select().from(identityJobs).where(eq(identityJobs.workflowRunId, workflowRunId)))[0]!.status).toBe('expired');
    const decide = (id: string, decision: 'approve' | 'reject') =>
      callMethod(t.app, 'adminIdentityJobDecide', { workflowRunId: id, decision, ...(decision === 'reject' ? { reason: 'Blurred photo' } : {}) }, { token: admin });
    expect((await decide(again.body.workflowRunId as string, 'reject')).body.responseCode).toBe('00');
    expect(await status()).toBe('rejected');
    const third = await asRepresentative({ fromEmail: danielEmail, authSecret: secret });
    expect(await status()).toBe('pending');
    expect((await decide(third.body.workflowRunId as string, 'approve')).body.responseCode).toBe('00');
    expect(await status()).toBe('validated');
    // Olivia's own status (set by the demo data) is untouched
    expect(((await nw('businessRepresentativeInfoGet', viewer, { id: rep.olivia })).representative as Representative).identityVerificationStatus).toBe('validated');
  });

  it("at the company's activation, each person of its structure who is not a user and has an e-mail gets a link", async () => {
    const since = (await t.db.select({ id: outbox.id }).from(outbox).orderBy(desc(outbox.id)).limit(1))[0]!.id;
    const sent = await t.db.transaction((tx) =>
      sendRepresentativeLinks(tx, northwindId, { companyName: NORTHWIND_NAME, nowMs: Date.now(), publicUrl: 'https://bank.example.test', projectName: 'Bank' }),
    );
    // Daniel and Marta: Olivia, Carl and Vera are users, Harbour is a company
    expect(sent).toBe(2);
    const mails = (await t.db.select().from(outbox).orderBy(desc(outbox.id)).limit(5)).filter((m) => m.id > since);
    expect(mails.map((m) => m.recipient).sort()).toEqual(['daniel.reed@northwind.test', 'marta.lind@harbour.test']);
    for (const m of mails) expect(m.body).toMatch(/https:\/\/bank\.example\.test\/self-certification-representative\?authSecret=[A-Za-z0-9_-]{43}\n/);
    secret = await lastSecret(danielEmail);
  });

  it('a new link replaces the old one; an expired link, a representative become a user and a removed one are refused', async () => {
    const old = secret;
    expect((await nw('businessRepresentativeLinkSend', owner, { representativeId: rep.daniel })).responseCode).toBe('00');
    const fresh = await lastSecret(danielEmail);
    expect(fresh).not.toBe(old);
    expect((await asRepresentative({ fromEmail: danielEmail, authSecret: old })).status).toBe(401);
    expect((await asRepresentative({ fromEmail: danielEmail, authSecret: fresh })).body.responseCode).toBe('00');
    // past its expiry
    const hash = createHash('sha256').update(fresh).digest('hex');
    await t.db
      .update(businessRepresentativeLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(businessRepresentativeLinks.secretHash, hash));
    expect((await asRepresentative({ fromEmail: danielEmail, authSecret: fresh })).status).toBe(401);
    await t.db
      .update(businessRepresentativeLinks)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(businessRepresentativeLinks.secretHash, hash));
    expect((await asRepresentative({ fromEmail: danielEmail, authSecret: fresh })).body.responseCode).toBe('00');
    // Daniel invited as a user: he signs in from now on, and his link stops working
    expect((await nw('representativeAdd', owner, { email: danielEmail, firstName: 'Daniel', lastName: 'Reed', accessRights: 1, representativeId: rep.daniel })).responseCode).toBe(
      '00',
    );
    expect((await asRepresentative({ fromEmail: danielEmail, authSecret: fresh })).status).toBe(401);
    // Marta (her link from the activation) removed from the structure: hers stops working too
    const martaEmail = 'marta.lind@harbour.test';
    const marta = await lastSecret(martaEmail);
    expect((await asRepresentative({ fromEmail: martaEmail, authSecret: marta })).body.responseCode).toBe('00');
    expect((await nw('representativeDelete', owner, { id: rep.marta })).responseCode).toBe('00');
    expect((await asRepresentative({ fromEmail: martaEmail, authSecret: marta })).status).toBe(401);
    const jobs = await t.db
      .select({ n: count() })
      .from(identityJobs)
      .where(and(eq(identityJobs.customerId, northwindId), eq(identityJobs.status, 'pending')));
    expect(jobs[0]!.n).toBe(2);
  });
});
