/**
 * The wire envelope shared by every named method (document 1 §7-§8).
 *
 * Every answer carries `responseCode`; '00' is the only success. A failure may carry a
 * `responseDescription`, the `validationErrors` of a VF answer, or the `terms` of a TE answer.
 */
import * as v from 'valibot';
import { VF_CODES, describeVf, isVfCode, vf, type CodedValidationError, type VfCode, type VfParamValue } from './errors.ts';

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
  /** a confirmation is needed (document 2 §9 "confirm code '92'"): a global-pay upload of a file already uploaded (api/global-pay.ts) */
  confirm: '92',
} as const;

export type ResponseCode = (typeof ResponseCode)[keyof typeof ResponseCode];
export const responseCodes = Object.values(ResponseCode) as [ResponseCode, ...ResponseCode[]];

/**
 * One bad field. `param` and `description` are the spec's (document 1 §5); our platform also
 * sends `code` and `params` (api/errors.ts), which the web app translates. Optional on the wire
 * so answers of other platforms still parse.
 */
export const ValidationErrorSchema = v.object({
  param: v.string(),
  description: v.string(),
  code: v.optional(v.string()),
  params: v.optional(v.record(v.string(), v.union([v.string(), v.number()]))),
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

/**
 * The code of one valibot issue. A schema may put a code from api/errors.ts as an action's
 * message (`v.regex(RE, VfCode.needsDigit)`); otherwise the issue's kind gives it, with the
 * action's requirement as its parameter. A schema's English message never reaches the wire.
 */
export function issueToValidationError(issue: v.BaseIssue<unknown>, path: string): CodedValidationError {
  // A key left out of an object reads as valibot's "Invalid key: Expected ..."; say it plainly.
  const missing = issue.kind === 'schema' && issue.input === undefined;
  if (missing) return vf(path, 'required');
  if (isVfCode(issue.message)) return coded(path, issue.message, issue);
  const requirement = issue.requirement;
  const count = typeof requirement === 'number' ? requirement : Number(requirement);
  const isText = typeof issue.input === 'string';
  switch (issue.type) {
    case 'min_length':
      if (isText) return count === 1 ? vf(path, 'required') : vf(path, 'tooShort', { min: count });
      return vf(path, 'tooFewItems', { min: count });
    case 'max_length':
      return isText ? vf(path, 'tooLong', { max: count }) : vf(path, 'tooManyItems', { max: count });
    case 'min_value':
      return vf(path, 'tooSmall', { min: count });
    case 'max_value':
      return vf(path, 'tooLarge', { max: count });
    case 'integer':
      return vf(path, 'notInteger');
    case 'email':
      return vf(path, 'notEmail');
    case 'iso_date':
      return vf(path, 'notDate');
    case 'regex':
    case 'uuid':
      return vf(path, 'badFormat');
    case 'picklist':
    case 'literal':
    case 'enum':
      return vf(path, 'notAllowed');
    default:
      return issue.kind === 'schema' ? vf(path, 'wrongType') : vf(path, 'invalid');
  }
}

/** A code a schema named, with the action's requirement as its one parameter when it takes one. */
function coded(path: string, code: VfCode, issue: v.BaseIssue<unknown>): CodedValidationError {
  const names: readonly string[] = VF_CODES[code].params;
  const requirement = issue.requirement;
  const params: Record<string, VfParamValue> =
    names.length === 1 && (typeof requirement === 'number' || typeof requirement === 'string') ? { [names[0]!]: requirement } : {};
  return { param: path, description: describeVf(code, params), code, params };
}

/** Turn valibot issues into the VF list: one entry per bad field, dotted path as param. */
export function issuesToValidationErrors(issues: readonly v.BaseIssue<unknown>[]): CodedValidationError[] {
  const byParam = new Map<string, CodedValidationError>();
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '';
    if (!byParam.has(path)) byParam.set(path, issueToValidationError(issue, path));
  }
  return [...byParam.values()];
}

/** Document 1 §5: server validation errors (array or single) are joined as `param: description`. */
export function joinValidationErrors(errors: ValidationError | readonly ValidationError[]): string {
  const list = Array.isArray(errors) ? errors : [errors as ValidationError];
  return list.map((e) => (e.param ? `${e.param}: ${e.description}` : e.description)).join(', ');
}
