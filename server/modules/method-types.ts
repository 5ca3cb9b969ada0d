/**
 * The shape of a named-method handler. The endpoint (server/modules/platform) validates the body
 * with the api/ schema, authenticates and authorises, opens one transaction for a mutation, calls
 * the handler, validates the answer with the response schema, and writes the audit entry.
 */
import type * as v from 'valibot';
import type { MethodDef } from '../../api/method.ts';
import type { ResponseCode, Term } from '../../api/envelope.ts';
import { vf, type CodedValidationError, type VfCode, type VfParams } from '../../api/errors.ts';
import type { UiLanguage } from './dictionaries/dictionaries.tables.ts';
import type { Db } from '../db/types.ts';

export interface Caller {
  userId: number;
  /** the signed-in user's own customer id */
  customerId: number;
  isAdmin: boolean;
  /**
   * A restricted session (api/auth.ts AccessClaims.rst): 'setup2fa' after a recovery-code sign-in,
   * 'scp' under a strict push migration. The method endpoint lets such a caller call only
   * RESTRICTED_SESSION_METHODS; REST endpoints check it themselves.
   */
  restriction?: SessionRestriction | undefined;
  /** the sign-in family of the access token (AccessClaims.fam): a password change keeps this session alive */
  familyId?: string | undefined;
}

export type SessionRestriction = 'scp' | 'setup2fa';

export interface MethodContext {
  /**
   * A mutation gets its transaction here; a read gets the database itself: a read's queries run
   * without BEGIN/COMMIT (each statement sees a consistent snapshot; a read that needs one snapshot
   * across several statements opens its own transaction). Saves two round trips per read.
   */
  db: Db;
  /** null only for public methods called without a token */
  caller: Caller | null;
  /** the customer the call acts for: fromCustomerId when given and authorised, else the caller's own */
  customerId: number | null;
  lang: UiLanguage;
  /** adds detail to the audit entry written for a mutation */
  audit(details: Record<string, unknown>): void;
  /** publish a push event to a customer after the transaction commits */
  publish(customerId: number, event: Record<string, unknown> & { type: string }): void;
  /** files of a multipart call (the JSON body is its `data` part); empty for JSON calls */
  files: UploadedFile[];
  /** the client's address (X-Forwarded-For only with TRUST_PROXY): ipInfo answers about it */
  ip: string;
  /**
   * The representative a fromEmail/authSecret pair authenticated (REPRESENTATIVE_SECRET_METHODS
   * only, api/method.ts); customerId is then their company. Undefined for every other call.
   */
  representative?: AuthenticatedRepresentative | undefined;
}

/** A representative who is not a user, authenticated by their link (server/modules/business/representative-link.ts). */
export interface AuthenticatedRepresentative {
  representativeId: number;
  /** the company the representative belongs to */
  companyId: number;
  email: string;
  /** the link (business_representative_links) that authenticated the call */
  linkId: number;
}

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  content: Buffer;
}

/** An expected failure: answered with its response code, nothing written. */
export class MethodFailure extends Error {
  constructor(
    readonly responseCode: Exclude<ResponseCode, '00'>,
    readonly responseDescription: string,
    /** every entry carries its code (api/errors.ts): build them with vf() */
    readonly validationErrors?: CodedValidationError[],
    /** the terms to accept, for a TE answer */
    readonly terms?: Term[],
  ) {
    super(responseDescription);
  }
}

export type MethodHandler<M extends MethodDef> = (
  input: v.InferOutput<M['request']>,
  ctx: MethodContext,
) => Promise<Omit<v.InferInput<M['response']>, 'responseCode'>>;

export type HandlerTable<T extends Record<string, MethodDef>> = { [K in keyof T]: MethodHandler<T[K]> };

/** A VF answer naming one field with its code (api/errors.ts): `throw vfFailure('amount', VfCode.positive)`. */
export function vfFailure<C extends VfCode>(param: string, code: C, ...params: keyof VfParams<C> extends never ? [] : [VfParams<C>]): MethodFailure {
  return new MethodFailure('VF', 'Invalid request', [vf(param, code, ...params)]);
}
