/**
 * The wire envelope shared by every named method (document 1 §7-§8).
 *
 * Every answer carries `responseCode`; '00' is the only success. A failure may carry a
 * `responseDescription`, the `validationErrors` of a VF answer, or the `terms` of a TE answer.
 */
import * as v from 'valibot';

export const ResponseCode = {
  success: '00',
  /** verify error: validationErrors lists every bad field */
  validation: 'VF',
  /** terms error: the terms to accept are listed */
  terms: 'TE',
  /** network error (client side only: the call never got an answer) */
  network: 'AE',
  /** auth error: missing, malformed or expired token */
  auth: 'AU',
  /** no access: the caller has no rights for the customer it acts for */
  noAccess: 'ENOA',
  /** unknown error */
  unknown: 'UE',
  /** closed account */
  closedAccount: 'CA',
  /** access denied */
  accessDenied: '13',
  /** invalid params (well-formed but not acceptable, e.g. an id that does not exist) */
  invalidParams: 'TA1',
  /** invalid method: no such named method */
  invalidMethod: 'IM',
} as const;

export type ResponseCode = (typeof ResponseCode)[keyof typeof ResponseCode];
export const responseCodes = Object.values(ResponseCode) as [ResponseCode, ...ResponseCode[]];

export const ValidationErrorSchema = v.object({
  param: v.string(),
  description: v.string(),
});
export type ValidationError = v.InferOutput<typeof ValidationErrorSchema>;

export const TermSchema = v.object({
  id: v.number(),
  version: v.number(),
  title: v.string(),
  url: v.string(),
});
export type Term = v.InferOutput<typeof TermSchema>;

/** Fields any failed answer may carry. */
export const FailureSchema = v.object({
  responseCode: v.picklist(responseCodes),
  responseDescription: v.optional(v.string()),
  validationErrors: v.optional(v.array(ValidationErrorSchema)),
  terms: v.optional(v.array(TermSchema)),
});
export type Failure = v.InferOutput<typeof FailureSchema>;

/** A success answer: the method's own fields plus responseCode '00'. */
export function success<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.object({ responseCode: v.literal(ResponseCode.success), ...entries });
}

export function isSuccess(answer: { responseCode: string }): boolean {
  return answer.responseCode === ResponseCode.success;
}

/** Turn valibot issues into the VF list: one entry per bad field, dotted path as param. */
export function issuesToValidationErrors(issues: readonly v.BaseIssue<unknown>[]): ValidationError[] {
  const byParam = new Map<string, string>();
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '';
    // A key left out of an object reads as valibot's "Invalid key: Expected ..."; say it plainly.
    const missingKey = issue.kind === 'schema' && issue.type === 'object' && issue.input === undefined && path !== '';
    if (!byParam.has(path)) byParam.set(path, missingKey ? 'is required' : issue.message);
  }
  return [...byParam].map(([param, description]) => ({ param, description }));
}

/** Document 1 §5: server validation errors (array or single) are joined as `param: description`. */
export function joinValidationErrors(errors: ValidationError | readonly ValidationError[]): string {
  const list = Array.isArray(errors) ? errors : [errors as ValidationError];
  return list.map((e) => (e.param ? `${e.param}: ${e.description}` : e.description)).join(', ');
}
