/**
 * The body of a named-method call as a fake platform reads it: the wrapper repeats the method's
 * name in the body (document 1 §7); this checks it is the one in the path and hands the test the
 * rest, so a test compares only what the caller sent.
 */
export function methodBody(name: string, init: RequestInit | undefined): Record<string, unknown> {
  const { method, ...rest } = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
  if (method !== name) throw new Error(`the body names ${String(method)}, the path ${name}`);
  return rest;
}
