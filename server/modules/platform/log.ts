/**
 * Logging rules: never a request body, a token, a password, a one-time code or card data.
 * Pino redacts these paths wherever they appear in a log object; errors are reduced to what
 * cannot carry user input (a query error's message would carry its parameters).
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.otp',
  '*.code',
  '*.codeVerifier',
  '*.refreshToken',
  '*.accessToken',
  '*.token',
  '*.secret',
  '*.pan',
  '*.cvv',
  '*.pin',
  'password',
  'otp',
  'code',
  'codeVerifier',
  'refreshToken',
  'accessToken',
  'token',
  'secret',
  'pan',
  'cvv',
  'pin',
];

/** An error as a log field: its type, a code, and for database errors the driver's own message. */
export function safeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const cause = (err as { cause?: unknown }).cause;
  const isQueryError = err.name === 'DrizzleQueryError' || /^Failed query:/.test(err.message);
  const message = isQueryError ? (cause instanceof Error ? cause.message : 'query failed') : err.message;
  return {
    type: err.name,
    message: message.slice(0, 500),
    code: (err as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code,
    stack: isQueryError ? undefined : err.stack?.split('\n').slice(0, 8).join('\n'),
  };
}

/**
 * What the one log line of a request says of it: method, path, status and time. The query is left
 * out (a download link carries its token there), except the named method of an API call
 * (`/api/v1/?getCustomerInfo`), which is a name from the registry or cut to 100 characters.
 */
export function requestLogFields(request: { method: string; url: string }, statusCode: number, elapsedMs: number): Record<string, unknown> {
  const q = request.url.indexOf('?');
  const path = q < 0 ? request.url : request.url.slice(0, q);
  const method = q >= 0 && path.startsWith('/api/') ? (request.url.slice(q + 1).split('&')[0] ?? '').slice(0, 100) : undefined;
  return { req: { method: request.method, path, ...(method ? { apiMethod: method } : {}) }, res: { statusCode }, ms: Math.round(elapsedMs * 10) / 10 };
}
