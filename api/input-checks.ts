/**
 * Checks every named method's request gets on top of its own schema (issue 11, finding 9):
 *
 * - No control characters in text: C0 controls (U+0000-U+001F) and DEL (U+007F) are refused
 *   with VF naming the field, wherever the text is (nested objects and arrays included). Tab,
 *   line feed and carriage return are allowed in the multi-line fields only (MULTILINE_FIELDS).
 *   A NUL would otherwise reach PostgreSQL (which refuses it in text: an unknown error), and the
 *   others end up in logs, e-mails, CSV exports and PDFs where they can forge lines.
 * - The acting-customer header is an id within MAX_ID, like fromCustomerId.
 *
 * The checks produce valibot issues, so the endpoint answers them exactly like schema failures
 * (one VF with every bad field).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { CUSTOMER_ID_HEADER } from './http.ts';
import { MAX_ID } from './method.ts';

/** Fields (by their own key, at any depth) whose text may span lines: tab, LF and CR are allowed there. */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(['note', 'reason', 'comment', 'message', 'answer', 'text']);

export const InputCheckMessages = {
  controlCharacters: VfCode.controlCharacters,
  customerIdHeader: VfCode.notCustomerId,
  tooDeep: VfCode.invalid,
} as const;

const CONTROL_ANY = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

type PathItem = { type: 'object'; origin: 'value'; input: unknown; key: string | number; value: unknown };

function issueAt(path: PathItem[], input: unknown, message: string): v.BaseIssue<unknown> {
  return {
    kind: 'validation',
    type: 'check',
    input,
    expected: null,
    received: typeof input === 'string' ? 'control characters' : String(input),
    message,
    path: path as unknown as v.BaseIssue<unknown>['path'],
  };
}

/** No request nests deeper than this (the deepest contract, the shareholder tree, stays far below). */
export const MAX_BODY_DEPTH = 64;

/**
 * An issue for every string (at any depth) holding a control character its field does not allow,
 * and one for a body nested deeper than MAX_BODY_DEPTH (walked with a stack of its own: a deeply
 * nested body must not exhaust the call stack, nor cost more than one visit per value).
 */
export function controlCharacterIssues(value: unknown): v.BaseIssue<unknown>[] {
  type Visit = { value: unknown; path: PathItem[]; field: string | undefined };
  const issues: v.BaseIssue<unknown>[] = [];
  const stack: Visit[] = [{ value, path: [], field: undefined }];
  while (stack.length > 0) {
    const { value: item, path, field } = stack.pop()!;
    if (typeof item === 'string') {
      // A body that is a bare string is the schema's to refuse; an array item is judged by the field holding the array.
      if (path.length === 0) continue;
      const pattern = field !== undefined && MULTILINE_FIELDS.has(field) ? CONTROL_BUT_LINES : CONTROL_ANY;
      if (pattern.test(item)) issues.push(issueAt(path, item, InputCheckMessages.controlCharacters));
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    if (path.length >= MAX_BODY_DEPTH) {
      issues.push(issueAt(path, item, InputCheckMessages.tooDeep));
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(item) ? item.map((x, i) => [i, x]) : Object.entries(item as Record<string, unknown>);
    // pushed in reverse: the issues come out in the body's order
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      stack.push({ value: child, path: [...path, { type: 'object', origin: 'value', input: item, key, value: child }], field: typeof key === 'string' ? key : field });
    }
  }
  return issues;
}

export type MethodRequestParse<TOutput> =
  | { success: true; output: TOutput; issues?: undefined }
  | { success: false; output?: undefined; issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] };

/**
 * A named method's body through its schema (every issue, not the first) and the checks above.
 * `headers` are the request's (lower-case names, as Node gives them).
 */
export function parseMethodRequest<S extends v.GenericSchema>(
  schema: S,
  body: unknown,
  headers: Record<string, string | string[] | undefined> = {},
): MethodRequestParse<v.InferOutput<S>> {
  const parsed = v.safeParse(schema, body, { abortEarly: false });
  const issues: v.BaseIssue<unknown>[] = parsed.success ? [] : [...parsed.issues];
  // Check what the schema let through (on a failure, the raw body: every bad field at once).
  issues.push(...controlCharacterIssues(parsed.success ? parsed.output : body));
  const header = headers[CUSTOMER_ID_HEADER.toLowerCase()];
  // A malformed header is the endpoint's own check; a well-formed one past MAX_ID is refused here.
  if (typeof header === 'string' && /^[1-9]\d{0,9}$/.test(header) && Number(header) > MAX_ID) {
    issues.push(issueAt([{ type: 'object', origin: 'value', input: headers, key: CUSTOMER_ID_HEADER, value: header }], header, InputCheckMessages.customerIdHeader));
  }
  if (issues.length > 0) return { success: false, issues: issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] };
  return { success: true, output: parsed.output as v.InferOutput<S> };
}
