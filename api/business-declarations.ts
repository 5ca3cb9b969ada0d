/**
 * The business operations of document 3 §7 "Commands by action name" and "Named methods" that
 * record a company's statements, produce its board resolution and reach its representatives who
 * are not users (document 3 §4 "A business resolution can be generated for chosen directors", §6
 * "An unauthorised representative can use only FATCA/CRS, W-form, loss-of-nationality and identity
 * verification"; document 1 §7 "fromEmail or authSecret for listed methods"). The spec names the
 * calls and their keys only; the shapes below are this platform's decisions:
 *
 * Statements (businessDeclarationsGet/Send, prohibitedEscortStatementGet/Send)
 * - They concern companies of the adult industry group (dictionaryIndustry group `adult`, which
 *   variants with hideAdultIndustries never offer): the company's registered industry
 *   (financialDetail.industry) decides `required`. The studio declaration is asked of companies
 *   running webcam studios or live streaming (industry 402), the streaming declaration of those
 *   producing or streaming adult content (401, 402); the prohibited-escort statement of every
 *   company of the group. A company outside them reads required: false (with the texts, for
 *   reference) and a send answers VF declarationNotRequired.
 * - The declarations are personal: a representative (a person of the company's structure) makes
 *   them, so the send must come from the user that representative is (VF notYourRepresentative
 *   otherwise); the escort statement binds the company and comes from any user of the company
 *   with 'change' rights (api/rights.ts; an administrator acting for the company does not speak
 *   for it: 13). Reads need 'read'.
 * - Each text has a version; a send names the version the user read, and a version that is no
 *   longer current is refused (VF textNotCurrent), so an acceptance always points at the exact text
 *   shown. The platform records who, when, from which address, the version and the text's SHA-256,
 *   once (VF alreadyAccepted on a second send), in the call's transaction with its audit entry.
 * - Language: the binding texts are English (`language: 'en'`); the platform holds no reviewed
 *   translations of legal statements, so the answer says which language the text is in and the
 *   app shows it as it is, whatever the request's `lang`.
 *
 * Resolution (resolutionGet/Send {businessRepresentativeIds})
 * - The board resolution authorising the account opening with the provider and naming the users
 *   who act for the company with their rights, with a signature block for each chosen director;
 *   every id must be a director of the company acted for (VF notDirector naming the entry), at most
 *   MAX_RESOLUTION_DIRECTORS, no id twice. A PDF (server/modules/business/resolution-pdf.ts), in
 *   English for the reason above, returned in the JSON answer as base64 (named methods answer JSON;
 *   the file is small: one or two pages).
 * - resolutionSend submits it to the provider: the PDF is stored as the company's document of
 *   category 6 (relationship to the company), type 42 (board resolution), linked to each chosen
 *   director, waiting for the provider's review like an upload; each chosen director with an e-mail
 *   address is told by e-mail that a resolution naming them was submitted (a control against a
 *   resolution sent in a director's name without their knowledge). 'manage' rights: it concerns
 *   who acts for the company.
 *
 * The representative's link (businessRepresentativeLinkSend, our own name; identityVerificationRepresentative)
 * - A representative who is not a user (a director, shareholder or owner) gets a secret link by
 *   e-mail to /self-certification-representative?authSecret=...: 256 random bits, stored as SHA-256
 *   with an expiry of REPRESENTATIVE_LINK_TTL_S; a new link revokes the earlier ones. The platform
 *   sends one to each such person with an e-mail address when the company is activated
 *   (businessAccountActivate, as the users' activation links), and a user with 'manage' rights
 *   sends a new one on demand. The link carries the secret only: the page asks for the e-mail
 *   address it was sent to (fromEmail), so a forwarded link alone is not enough.
 * - A call of a REPRESENTATIVE_SECRET_METHODS method carrying fromEmail and authSecret is
 *   authenticated as that representative only (server/modules/platform/method-endpoint.ts): a
 *   wrong pair, an expired or revoked link, a removed representative or one who has become a
 *   user answer 401 AU alike; one of the two fields alone is VF required on the other. Every
 *   other method refuses the fields (VF fieldNotTaken), as before.
 * - identityVerificationRepresentative starts an identity-verification job for that representative
 *   with the configured provider, as the profile's start does for a person (the job's page, token
 *   and URL), and the representative's identityVerificationStatus becomes pending; the job's
 *   decision (adminIdentityJobDecide for the built-in review queue) makes it validated or rejected.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { defineMethod, Id } from './method.ts';
import { UploadedDocumentSchema } from './documents.ts';
import { REPRESENTATIVE_IDENTITY_STATUSES } from './business.ts';

/** The statements of this file: a representative's declarations, the company's escort statement. */
export const DECLARATION_KINDS = ['studio', 'streaming'] as const;
export type DeclarationKind = (typeof DECLARATION_KINDS)[number];
export type StatementKind = DeclarationKind | 'prohibitedEscort';

/** The language the statement texts and the resolution are written in (see the header). */
export const STATEMENT_LANGUAGE = 'en';
/** Directors one resolution names at most. */
export const MAX_RESOLUTION_DIRECTORS = 20;
/** How long a representative's link works: 14 days. */
export const REPRESENTATIVE_LINK_TTL_S = 14 * 24 * 60 * 60;
/** The web app's page the link opens (document 1 §2, document 3 §2). */
export const REPRESENTATIVE_LINK_PATH = '/self-certification-representative';

/** Who accepted a statement, when, and which version. */
export const AcceptanceSchema = v.object({
  /** ISO 8601 */
  acceptedAt: v.string(),
  acceptedByUserId: v.number(),
  /** the accepting user's name as the company's users list shows it */
  acceptedByName: v.string(),
  textVersion: v.string(),
});
export type Acceptance = v.InferOutput<typeof AcceptanceSchema>;

export const StatementSchema = v.object({
  kind: v.picklist(['studio', 'streaming', 'prohibitedEscort']),
  /** asked of this company (its industry); false: shown for reference, cannot be sent */
  required: v.boolean(),
  /** the current text's version: a send names it */
  version: v.string(),
  /** the language of title and text (STATEMENT_LANGUAGE) */
  language: v.string(),
  title: v.string(),
  /** paragraphs separated by blank lines */
  text: v.string(),
  /** the acceptance on record, or null */
  accepted: v.nullable(AcceptanceSchema),
});
export type Statement = v.InferOutput<typeof StatementSchema>;

const versionSchema = v.pipe(v.string(VfCode.required), v.trim(), v.minLength(1, VfCode.required), v.maxLength(50, VfCode.tooLong));

const declarationsAnswer = {
  businessRepresentativeId: v.number(),
  /** the company's registered industry (dictionaryIndustry id), or null when none is recorded */
  industryId: v.nullable(v.number()),
  /** some declaration is asked of this company */
  required: v.boolean(),
  declarations: v.array(StatementSchema),
};

/** The studio and streaming declarations of one representative of the company acted for. */
export const businessDeclarationsGet = defineMethod({
  name: 'businessDeclarationsGet',
  access: 'customer',
  mutation: false,
  request: { businessRepresentativeId: Id },
  response: declarationsAnswer,
});

/** The representative (the caller) accepts the declarations named, each at the version read. */
export const businessDeclarationsSend = defineMethod({
  name: 'businessDeclarationsSend',
  access: 'customer',
  mutation: true,
  request: {
    businessRepresentativeId: Id,
    declarations: v.pipe(
      v.array(v.object({ kind: v.picklist(DECLARATION_KINDS, VfCode.notAllowed), version: versionSchema }), VfCode.wrongType),
      v.minLength(1, VfCode.required),
      v.maxLength(DECLARATION_KINDS.length, VfCode.tooManyItems),
      v.check((list) => new Set(list.map((d) => d.kind)).size === list.length, VfCode.duplicateEntry),
    ),
  },
  response: declarationsAnswer,
});

const escortAnswer = { required: v.boolean(), statement: StatementSchema };

export const prohibitedEscortStatementGet = defineMethod({
  name: 'prohibitedEscortStatementGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: escortAnswer,
});

export const prohibitedEscortStatementSend = defineMethod({
  name: 'prohibitedEscortStatementSend',
  access: 'customer',
  mutation: true,
  request: { version: versionSchema },
  response: escortAnswer,
});

const directorIds = v.pipe(
  v.array(Id, VfCode.wrongType),
  v.minLength(1, VfCode.required),
  v.maxLength(MAX_RESOLUTION_DIRECTORS, VfCode.tooManyItems),
  v.check((ids) => new Set(ids).size === ids.length, VfCode.duplicateEntry),
);

export const ResolutionDirectorSchema = v.object({ id: v.number(), firstName: v.string(), lastName: v.string() });

export const ResolutionFileSchema = v.object({
  fileName: v.string(),
  mimeType: v.literal('application/pdf'),
  sizeBytes: v.number(),
  /** SHA-256 of the file, hex */
  sha256: v.string(),
  contentBase64: v.string(),
  /** ISO 8601: the date printed on it */
  generatedAt: v.string(),
  language: v.string(),
  directors: v.array(ResolutionDirectorSchema),
});

/** The board resolution for the chosen directors, as a PDF. */
export const resolutionGet = defineMethod({
  name: 'resolutionGet',
  access: 'customer',
  mutation: false,
  request: { businessRepresentativeIds: directorIds },
  response: { resolution: ResolutionFileSchema },
});

/** Submits the resolution for the chosen directors to the provider (a company document) and tells them by e-mail. */
export const resolutionSend = defineMethod({
  name: 'resolutionSend',
  access: 'customer',
  mutation: true,
  request: { businessRepresentativeIds: directorIds },
  response: {
    /** the stored resolution, waiting for review */
    document: UploadedDocumentSchema,
    directors: v.array(ResolutionDirectorSchema),
    /** the directors told by e-mail (masked addresses); a director without an address is not */
    notified: v.array(v.object({ representativeId: v.number(), sentTo: v.string() })),
  },
});

/** Sends a representative who is not a user their link (a new secret; the earlier ones stop working). Our own name. */
export const businessRepresentativeLinkSend = defineMethod({
  name: 'businessRepresentativeLinkSend',
  access: 'customer',
  mutation: true,
  request: { representativeId: Id },
  response: {
    /** the address it went to, masked */
    sentTo: v.string(),
    /** ISO 8601 */
    expiresAt: v.string(),
  },
});

/**
 * Starts the identity verification of the representative the fromEmail/authSecret pair
 * authenticates (no sign-in; the link is the capability). The job's page, token and URL as the
 * profile's start answers them.
 */
export const identityVerificationRepresentative = defineMethod({
  name: 'identityVerificationRepresentative',
  access: 'public',
  mutation: true,
  request: {},
  response: {
    workflowRunId: v.string(),
    /** the secret of the job's page (only its hash is stored) */
    token: v.string(),
    provider: v.string(),
    /** where the representative continues */
    url: v.string(),
    representative: v.object({
      id: v.number(),
      firstName: v.string(),
      lastName: v.string(),
      companyName: v.string(),
      identityVerificationStatus: v.picklist(REPRESENTATIVE_IDENTITY_STATUSES),
    }),
  },
});

export const businessDeclarationMethods = {
  businessDeclarationsGet,
  businessDeclarationsSend,
  prohibitedEscortStatementGet,
  prohibitedEscortStatementSend,
  resolutionGet,
  resolutionSend,
  businessRepresentativeLinkSend,
  identityVerificationRepresentative,
};
