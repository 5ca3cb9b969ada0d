/**
 * Named methods of a company's statements, its board resolution and its representatives' links
 * (api/business-declarations.ts, whose header holds the decisions). The endpoint has checked the
 * rights table (api/rights.ts) for the company acted for, or authenticated the representative's
 * fromEmail/authSecret pair (ctx.representative); the handlers keep to that company's rows, check
 * the rest (the representative is the caller, the ids are directors, the version is current), and
 * write the details of every change into the call's audit entry (ids, kinds and versions; never a
 * secret, an address or a file).
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import {
  DECLARATION_KINDS,
  STATEMENT_LANGUAGE,
  type Acceptance,
  type DeclarationKind,
  type Statement,
  type StatementKind,
  type businessDeclarationMethods,
} from '../../../api/business-declarations.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import { DocumentCategory, DocumentStatus } from '../../../api/verification.ts';
import { activeVariant } from '../../../variants/index.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import { identityProviderFromConfig, type IdentityVerificationProvider } from '../../adapters/identity-verification.ts';
import type { Db, Tx } from '../../db/types.ts';
import { randomToken, sha256Hex } from '../auth/crypto.ts';
import { customerAccess, customers, users } from '../customers/customers.tables.ts';
import { readIndustries } from '../dictionaries/dictionaries.service.ts';
import { documentTypes } from '../dictionaries/data/documents.ts';
import { MethodFailure, vfFailure, type Caller, type HandlerTable, type MethodContext } from '../method-types.ts';
import { checkDocumentQuota, documentColumns, documentsToWire } from '../profile/documents.service.ts';
import { customerDocuments, identityJobs } from '../profile/profile.tables.ts';
import { IDENTITY_JOB_TTL_S } from '../profile/profile.routes.ts';
import { accessEntries, companyRepresentative, directorsOf, loadStructure, requireCompany, type RepresentativeRow } from './business.service.ts';
import { businessCompanies, businessRepresentativeDocuments, businessRepresentatives } from './business.tables.ts';
import { businessRepresentativeIdentityJobs, businessRepresentativeLinks, businessStatementAcceptances } from './declarations.tables.ts';
import { renderResolutionPdf, resolutionFileName } from './resolution-pdf.ts';
import { sendRepresentativeLink } from './representative-link.ts';
import { DECLARATION_INDUSTRIES, statementFor } from './statement-texts.ts';

type Handle = Db | Tx;

export interface DeclarationHandlerOptions {
  now: () => number;
  /** the web app's public origin: the representative's link is absolute */
  publicUrl: string;
  /** the brand in e-mails and documents */
  projectName: string;
  /** the provider's legal name in the statements and the resolution */
  providerLegalName?: string;
  /** the identity-verification provider; from IDENTITY_VERIFICATION_PROVIDER when omitted */
  identityProvider?: IdentityVerificationProvider;
}

const VF = (errors: CodedValidationError[]) => new MethodFailure('VF', 'Invalid request', errors);
const maskEmail = (email: string) => email.replace(/^(.).*(@.*)$/, '$1***$2');

function acting(ctx: MethodContext): { caller: Caller; companyId: number } {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { caller: ctx.caller, companyId: ctx.customerId };
}

/** The company's registered industry and which statements it is asked for. */
async function statementsAsked(db: Handle, companyId: number): Promise<{ industryId: number | null; asked: Record<StatementKind, boolean> }> {
  const [details] = await db.select({ financialDetail: businessCompanies.financialDetail }).from(businessCompanies).where(eq(businessCompanies.customerId, companyId));
  const raw = details?.financialDetail.industry;
  const industryId = typeof raw === 'number' && Number.isInteger(raw) ? raw : null;
  if (industryId === null) return { industryId, asked: { studio: false, streaming: false, prohibitedEscort: false } };
  // The group from the dictionary itself (the registration checks the industry against the same rows).
  const adult = (await readIndustries(db as Db, 'en', false)).find((g) => g.id === 'adult')?.industries.map((i) => i.id) ?? [];
  return {
    industryId,
    asked: {
      studio: DECLARATION_INDUSTRIES.studio.includes(industryId),
      streaming: DECLARATION_INDUSTRIES.streaming.includes(industryId),
      prohibitedEscort: adult.includes(industryId),
    },
  };
}

/** A user's name as the company shows it: the representative they are, else their own customer's. */
async function userName(db: Handle, companyId: number, userId: number): Promise<string> {
  const [rep] = await db
    .select({ firstName: businessRepresentatives.firstName, lastName: businessRepresentatives.lastName })
    .from(businessRepresentatives)
    .where(and(eq(businessRepresentatives.customerId, companyId), eq(businessRepresentatives.userId, userId)))
    .limit(1);
  if (rep && `${rep.firstName}${rep.lastName}`.trim() !== '') return `${rep.firstName} ${rep.lastName}`.trim();
  const [person] = await db
    .select({ firstName: customers.firstName, lastName: customers.lastName, email: users.email })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(users.id, userId));
  return person ? `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim() || person.email : '';
}

/** Has the user a customer_access row to the company with some right (not an administrator's reach)? */
async function isCompanyUser(db: Handle, userId: number, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ rights: customerAccess.accessRights })
    .from(customerAccess)
    .where(and(eq(customerAccess.userId, userId), eq(customerAccess.customerId, companyId)));
  return row !== undefined && row.rights > 0;
}

type AcceptanceRow = typeof businessStatementAcceptances.$inferSelect;

async function acceptancesOf(db: Handle, companyId: number, representativeId: number | null): Promise<AcceptanceRow[]> {
  return db
    .select()
    .from(businessStatementAcceptances)
    .where(
      and(
        eq(businessStatementAcceptances.customerId, companyId),
        representativeId === null ? isNull(businessStatementAcceptances.representativeId) : eq(businessStatementAcceptances.representativeId, representativeId),
      ),
    )
    .orderBy(asc(businessStatementAcceptances.id));
}

async function acceptanceWire(db: Handle, companyId: number, row: AcceptanceRow | undefined): Promise<Acceptance | null> {
  if (!row) return null;
  return {
    acceptedAt: row.acceptedAt.toISOString(),
    acceptedByUserId: row.acceptedByUserId,
    acceptedByName: await userName(db, companyId, row.acceptedByUserId),
    textVersion: row.textVersion,
  };
}

export function createBusinessDeclarationHandlers(options: DeclarationHandlerOptions): HandlerTable<typeof businessDeclarationMethods> {
  const providerLegalName = options.providerLegalName ?? activeVariant.letter.legalName;
  let identityProvider: IdentityVerificationProvider | undefined;
  const names = (company: { businessName: string | null }) => ({ provider: providerLegalName, company: company.businessName ?? '' });

  async function statementWire(
    db: Handle,
    companyId: number,
    company: { businessName: string | null },
    kind: StatementKind,
    required: boolean,
    rows: AcceptanceRow[],
  ): Promise<Statement> {
    const text = statementFor(kind, names(company));
    return {
      kind,
      required,
      version: text.version,
      language: STATEMENT_LANGUAGE,
      title: text.title,
      text: text.text,
      accepted: await acceptanceWire(
        db,
        companyId,
        rows.find((r) => r.kind === kind),
      ),
    };
  }

  async function declarationsOf(db: Handle, companyId: number, company: { businessName: string | null }, rep: RepresentativeRow) {
    const { industryId, asked } = await statementsAsked(db, companyId);
    const rows = await acceptancesOf(db, companyId, rep.id);
    const declarations: Statement[] = [];
    for (const kind of DECLARATION_KINDS) declarations.push(await statementWire(db, companyId, company, kind, asked[kind], rows));
    return { businessRepresentativeId: rep.id, industryId, required: DECLARATION_KINDS.some((k) => asked[k]), declarations };
  }

  async function escortOf(db: Handle, companyId: number, company: { businessName: string | null }) {
    const { asked } = await statementsAsked(db, companyId);
    const rows = await acceptancesOf(db, companyId, null);
    return { required: asked.prohibitedEscort, statement: await statementWire(db, companyId, company, 'prohibitedEscort', asked.prohibitedEscort, rows) };
  }

  /** The chosen directors of the company, in the order given; VF notDirector naming each other entry. */
  async function chosenDirectors(db: Handle, companyId: number, ids: readonly number[], lang: MethodContext['lang']) {
    const structure = await loadStructure(db, companyId, lang);
    const directors = new Map(directorsOf(structure).map((d) => [d.id, d]));
    const errors = ids.flatMap((id, i) => (directors.has(id) ? [] : [vf(`businessRepresentativeIds.${i}`, VfCode.notDirector)]));
    if (errors.length > 0) throw VF(errors);
    return ids.map((id) => directors.get(id)!);
  }

  async function resolutionFile(db: Handle, companyId: number, ids: readonly number[], lang: MethodContext['lang']) {
    const company = await requireCompany(db, companyId);
    const directors = await chosenDirectors(db, companyId, ids, lang);
    const [details] = await db.select({ registrationNumber: businessCompanies.registrationNumber }).from(businessCompanies).where(eq(businessCompanies.customerId, companyId));
    const generatedAt = new Date(options.now());
    const pdf = await renderResolutionPdf({
      providerName: options.projectName,
      providerLegalName,
      company: { name: company.businessName ?? '', registrationNumber: details?.registrationNumber ?? null, countryCode: company.residenceCountryCode, address: null },
      directors: directors.map((d) => ({ firstName: d.firstName, lastName: d.lastName })),
      users: (await accessEntries(db, companyId)).map((e) => ({ firstName: e.firstName, lastName: e.lastName, email: e.email, accessRights: e.accessRights })),
      generatedAt,
    });
    return {
      company,
      directors,
      pdf,
      fileName: resolutionFileName(company.businessName ?? '', generatedAt),
      sha256: createHash('sha256').update(pdf).digest('hex'),
      generatedAt,
    };
  }

  return {
    async businessDeclarationsGet(input, ctx) {
      const { companyId } = acting(ctx);
      const company = await requireCompany(ctx.db, companyId);
      const rep = await companyRepresentative(ctx.db, companyId, input.businessRepresentativeId);
      return declarationsOf(ctx.db, companyId, company, rep);
    },

    async businessDeclarationsSend(input, ctx) {
      const { caller, companyId } = acting(ctx);
      const company = await requireCompany(ctx.db, companyId);
      const rep = await companyRepresentative(ctx.db, companyId, input.businessRepresentativeId, true);
      // A declaration is personal: made by the representative, signed in as themself.
      if (rep.kind !== 'person' || rep.userId !== caller.userId) throw vfFailure('businessRepresentativeId', VfCode.notYourRepresentative);
      const { asked } = await statementsAsked(ctx.db, companyId);
      const done = await acceptancesOf(ctx.db, companyId, rep.id);
      const errors: CodedValidationError[] = [];
      input.declarations.forEach((d, i) => {
        if (!asked[d.kind]) errors.push(vf(`declarations.${i}.kind`, VfCode.declarationNotRequired));
        else if (done.some((r) => r.kind === d.kind)) errors.push(vf(`declarations.${i}.kind`, VfCode.alreadyAccepted));
        else if (d.version !== statementFor(d.kind, names(company)).version) errors.push(vf(`declarations.${i}.version`, VfCode.textNotCurrent));
      });
      if (errors.length > 0) throw VF(errors);
      const at = new Date(options.now());
      await ctx.db.insert(businessStatementAcceptances).values(
        input.declarations.map((d) => {
          const text = statementFor(d.kind as DeclarationKind, names(company));
          return {
            customerId: companyId,
            kind: d.kind,
            representativeId: rep.id,
            textVersion: text.version,
            textSha256: text.sha256,
            acceptedByUserId: caller.userId,
            acceptedAt: at,
            ip: ctx.ip,
          };
        }),
      );
      ctx.audit({ representativeId: rep.id, accepted: input.declarations.map((d) => ({ kind: d.kind, version: d.version })) });
      return declarationsOf(ctx.db, companyId, company, rep);
    },

    async prohibitedEscortStatementGet(_input, ctx) {
      const { companyId } = acting(ctx);
      const company = await requireCompany(ctx.db, companyId);
      return escortOf(ctx.db, companyId, company);
    },

    async prohibitedEscortStatementSend(input, ctx) {
      const { caller, companyId } = acting(ctx);
      const company = await requireCompany(ctx.db, companyId);
      // The company's statement is made by its own people: an administrator acting for it (allowed
      // 'change' by the rights table for the company's records) does not speak for it.
      if (caller.customerId !== companyId && !(await isCompanyUser(ctx.db, caller.userId, companyId))) {
        throw new MethodFailure('13', 'A statement is accepted by a user of the company');
      }
      // The company's row locked: two sends at once are one after the other (the unique index backs it).
      await ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.id, companyId)).for('update');
      const { asked } = await statementsAsked(ctx.db, companyId);
      if (!asked.prohibitedEscort) throw vfFailure('version', VfCode.declarationNotRequired);
      if ((await acceptancesOf(ctx.db, companyId, null)).some((r) => r.kind === 'prohibitedEscort')) throw vfFailure('version', VfCode.alreadyAccepted);
      const text = statementFor('prohibitedEscort', names(company));
      if (input.version !== text.version) throw vfFailure('version', VfCode.textNotCurrent);
      await ctx.db.insert(businessStatementAcceptances).values({
        customerId: companyId,
        kind: 'prohibitedEscort',
        representativeId: null,
        textVersion: text.version,
        textSha256: text.sha256,
        acceptedByUserId: caller.userId,
        acceptedAt: new Date(options.now()),
        ip: ctx.ip,
      });
      ctx.audit({ kind: 'prohibitedEscort', version: text.version });
      return escortOf(ctx.db, companyId, company);
    },

    async resolutionGet(input, ctx) {
      const { companyId } = acting(ctx);
      const file = await resolutionFile(ctx.db, companyId, input.businessRepresentativeIds, ctx.lang);
      return {
        resolution: {
          fileName: file.fileName,
          mimeType: 'application/pdf' as const,
          sizeBytes: file.pdf.length,
          sha256: file.sha256,
          contentBase64: file.pdf.toString('base64'),
          generatedAt: file.generatedAt.toISOString(),
          language: STATEMENT_LANGUAGE,
          directors: file.directors.map((d) => ({ id: d.id, firstName: d.firstName, lastName: d.lastName })),
        },
      };
    },

    async resolutionSend(input, ctx) {
      const { caller, companyId } = acting(ctx);
      const file = await resolutionFile(ctx.db, companyId, input.businessRepresentativeIds, ctx.lang);
      const [login] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, caller.userId));
      // Within the company's document quota, as any upload (a repeated send cannot fill the database).
      await checkDocumentQuota(
        ctx.db as Tx,
        companyId,
        [{ fileName: file.fileName, mimeType: 'application/pdf', content: file.pdf, sha256: file.sha256 }],
        'businessRepresentativeIds',
      );
      const [stored] = await ctx.db
        .insert(customerDocuments)
        .values({
          customerId: companyId,
          categoryId: DocumentCategory.relationship,
          documentTypeId: documentTypes.boardResolution.id,
          statusId: DocumentStatus.submitted,
          createdUsername: login?.email ?? '',
          createdByUserId: caller.userId,
          uploaded: file.generatedAt,
          fileName: file.fileName,
          mimeType: 'application/pdf',
          sizeBytes: file.pdf.length,
          sha256: file.sha256,
          content: file.pdf,
        })
        .returning(documentColumns);
      await ctx.db.insert(businessRepresentativeDocuments).values(file.directors.map((d) => ({ representativeId: d.id, documentId: stored!.id })));
      const notified: { representativeId: number; sentTo: string }[] = [];
      for (const director of file.directors) {
        if (!director.email) continue;
        await enqueueMail(ctx.db, {
          to: director.email,
          subject: `${options.projectName}: a board resolution naming you was submitted`,
          text:
            `Dear ${`${director.firstName} ${director.lastName}`.trim()},\n\n` +
            `A resolution of the board of directors of ${file.company.businessName ?? ''} naming you as a director was submitted to ${options.projectName} on ${file.generatedAt.toISOString().slice(0, 10)}. ` +
            `It authorises the opening of the company's accounts and the persons who act for the company.\n\n` +
            `If you do not know of this resolution, contact ${options.projectName} support at once.`,
        });
        notified.push({ representativeId: director.id, sentTo: maskEmail(director.email) });
      }
      ctx.audit({ documentId: stored!.id, directorIds: file.directors.map((d) => d.id), notified: notified.map((n) => n.representativeId), sha256: file.sha256 });
      return {
        document: (await documentsToWire(ctx.db, [stored!], ctx.lang))[0]!,
        directors: file.directors.map((d) => ({ id: d.id, firstName: d.firstName, lastName: d.lastName })),
        notified,
      };
    },

    async businessRepresentativeLinkSend(input, ctx) {
      const { caller, companyId } = acting(ctx);
      const company = await requireCompany(ctx.db, companyId);
      const rep = await companyRepresentative(ctx.db, companyId, input.representativeId, true);
      if (rep.kind !== 'person') throw vfFailure('representativeId', VfCode.notAllowed);
      if (rep.userId !== null) throw vfFailure('representativeId', VfCode.representativeIsUser);
      if (!rep.email) throw vfFailure('representativeId', VfCode.noEmailAddress);
      const { sentTo, expiresAt } = await sendRepresentativeLink(
        ctx.db,
        { ...rep, email: rep.email },
        { companyName: company.businessName ?? '', createdByUserId: caller.userId, nowMs: options.now(), publicUrl: options.publicUrl, projectName: options.projectName },
      );
      ctx.audit({ representativeId: rep.id, expiresAt: expiresAt.toISOString() });
      return { sentTo, expiresAt: expiresAt.toISOString() };
    },

    async identityVerificationRepresentative(_input, ctx) {
      const who = ctx.representative;
      if (!who) throw new MethodFailure('AU', 'The representative link is required');
      const rep = await companyRepresentative(ctx.db, who.companyId, who.representativeId, true);
      const company = await requireCompany(ctx.db, who.companyId);
      const provider = (identityProvider ??= options.identityProvider ?? identityProviderFromConfig(process.env.IDENTITY_VERIFICATION_PROVIDER));
      const workflowRunId = randomUUID();
      const token = randomToken();
      const { url } = await provider.start({ workflowRunId, token, kind: 'identity' });
      const now = new Date(options.now());
      // A new job replaces this representative's earlier pending one (as the profile's start does for a person).
      const earlier = await ctx.db
        .select({ jobId: businessRepresentativeIdentityJobs.jobId })
        .from(businessRepresentativeIdentityJobs)
        .where(eq(businessRepresentativeIdentityJobs.representativeId, rep.id));
      if (earlier.length > 0) {
        await ctx.db
          .update(identityJobs)
          .set({ status: 'expired' })
          .where(
            and(
              inArray(
                identityJobs.id,
                earlier.map((e) => e.jobId),
              ),
              eq(identityJobs.status, 'pending'),
            ),
          );
      }
      const [job] = await ctx.db
        .insert(identityJobs)
        .values({
          workflowRunId,
          tokenHash: sha256Hex(token),
          customerId: who.companyId,
          kind: 'identity',
          provider: provider.name,
          channel: 'camera',
          createdByUserId: null,
          createdAt: now,
          expiresAt: new Date(now.getTime() + IDENTITY_JOB_TTL_S * 1000),
        })
        .returning({ id: identityJobs.id });
      await ctx.db.insert(businessRepresentativeIdentityJobs).values({ jobId: job!.id, representativeId: rep.id });
      await ctx.db.update(businessRepresentatives).set({ identityStatus: 'pending' }).where(eq(businessRepresentatives.id, rep.id));
      await ctx.db.update(businessRepresentativeLinks).set({ lastUsedAt: now }).where(eq(businessRepresentativeLinks.id, who.linkId));
      ctx.audit({ representativeId: rep.id, workflowRunId, provider: provider.name, linkId: who.linkId });
      return {
        workflowRunId,
        token,
        provider: provider.name,
        url,
        representative: { id: rep.id, firstName: rep.firstName, lastName: rep.lastName, companyName: company.businessName ?? '', identityVerificationStatus: 'pending' as const },
      };
    },
  };
}
