/**
 * A named method of the main API: `POST /?{methodName}` (document 1 §7).
 *
 * The registry (registry.ts) is the single source of truth: the platform validates requests and
 * answers with these schemas, the web app parses answers with them.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { success } from './envelope.ts';

/**
 * Who may call a method:
 * - public: no token (dictionaries, account creation, activation, recovery)
 * - customer: a valid access token
 * - admin: a valid access token of an administrator
 */
export type MethodAccess = 'public' | 'customer' | 'admin';

/**
 * The largest id: every id is a positive 32-bit integer (the database's \`integer\`), so a larger
 * one is refused as VF here instead of failing in the database as an unknown error.
 */
export const MAX_ID = 2_147_483_647;

/** An id field of a request: an integer 1 to MAX_ID; refused as VfCode.notId (or the code given). */
export function idSchema(message: VfCode = VfCode.notId) {
  return v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(MAX_ID, message));
}

/** Is this text (a path parameter, a header) an id in decimal: 1 to MAX_ID, no sign, no leading zero? */
export function isIdText(text: string): boolean {
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= MAX_ID;
}

/** The id of anything (customer, account, document, address...). */
export const Id = idSchema();

/** The VF description of a body `method` other than the name in the path. */
export const METHOD_MISMATCH = 'must be the method named in the path';

/**
 * The methods whose body carries the unauthorised representative's fromEmail and authSecret
 * (document 1 §7 "fromEmail or authSecret for listed methods"; §6: that store implements only tax
 * certification, tax form upload, loss-of-nationality and identity verification). The spec does
 * not print the list: these are the listed operations of those four actions. Every other method
 * refuses the two fields (VF fieldNotTaken); the wrapper sends them only for these. For these, the
 * pair authenticates the representative (server/modules/business/representative-link.ts; 401 AU
 * when it does not); identityVerificationRepresentative is implemented (api/business-declarations.ts),
 * the tax ones in server/modules/tax (api/tax-certification.ts).
 */
export const REPRESENTATIVE_SECRET_METHODS: ReadonlySet<string> = new Set([
  'personalFatcaCrsCertificationGet',
  'personalFatcaCrsCertificationUpdate',
  'personalWFormUpload',
  // the representative's certificate of loss of nationality (documentUpload needs a token)
  'personalLossOfNationalityCertificateUpload',
  'identityVerificationRepresentative',
]);

/** Fields the wrapper may add to any body. */
export const baseRequestEntries = {
  /** The method's name again (document 1 §7: the body carries method); must equal the path's. */
  method: v.optional(v.pipe(v.string(), v.maxLength(100))),
  /** The representative's e-mail, for REPRESENTATIVE_SECRET_METHODS only. */
  fromEmail: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('must be an e-mail address'))),
  /** The representative's secret from the /self-certification-representative link, for REPRESENTATIVE_SECRET_METHODS only. */
  authSecret: v.optional(v.pipe(v.string(), v.minLength(16, 'must be 16 to 200 characters'), v.maxLength(200, 'must be 16 to 200 characters'))),
  /** UI language for dictionaries and messages: en es pt ro ru uk (also accepts ua). */
  lang: v.optional(v.picklist(['en', 'es', 'pt', 'ro', 'ru', 'uk', 'ua'])),
  /** The company a business user or admin acts for (document 1 §6). */
  fromCustomerId: v.optional(Id),
};

export interface MethodDef<
  TName extends string = string,
  TRequest extends v.GenericSchema = v.GenericSchema,
  TResponse extends v.GenericSchema = v.GenericSchema,
> {
  name: TName;
  access: MethodAccess;
  /** true when the method changes data: it runs in one transaction and writes an audit entry. */
  mutation: boolean;
  /**
   * true when the contract takes files: only these methods accept a multipart body (the JSON in
   * its `data` part), read after authentication; every other method refuses multipart unread.
   */
  files: boolean;
  request: TRequest;
  response: TResponse;
}

export function defineMethod<
  const TName extends string,
  const TReq extends v.ObjectEntries,
  const TRes extends v.ObjectEntries,
>(def: { name: TName; access: MethodAccess; mutation: boolean; files?: true; request: TReq; response: TRes }) {
  return {
    name: def.name,
    access: def.access,
    mutation: def.mutation,
    files: def.files ?? false,
    request: v.object({ ...baseRequestEntries, ...def.request }),
    response: success(def.response),
  } satisfies MethodDef;
}

export type RequestOf<M extends MethodDef> = v.InferInput<M['request']>;
export type ResponseOf<M extends MethodDef> = v.InferOutput<M['response']>;
