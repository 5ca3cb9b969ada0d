import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

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

const METHOD_NAME = /^[A-Za-z][A-Za-z0-9]{0,99}$/;

/**
 * Paths that carry a secret as a segment (a signing link's token: server/modules/esign): the
 * segment is logged as `[redacted]`, whatever the line's level.
 */
const SECRET_PATH_SEGMENTS = [/^(\/api\/v1\/e-signature\/)[^/?]+/, /^(\/e-sign\/)[^/?]+/];
const redactPath = (path: string) => SECRET_PATH_SEGMENTS.reduce((p, re) => p.replace(re, '$1[redacted]'), path);

/**
 * What the one log line of a request says of it: method, path, status and time. The query is left
 * out (a download link carries its token there), except the named method of an API call
 * (`/api/v1/?getCustomerInfo`) when it is a bare name (letters and digits).
 */
export function requestLogFields(request: { method: string; url: string }, statusCode: number, elapsedMs: number): Record<string, unknown> {
  const q = request.url.indexOf('?');
  const path = redactPath(q < 0 ? request.url : request.url.slice(0, q));
  const first = q >= 0 && path.startsWith('/api/') ? (request.url.slice(q + 1).split('&')[0] ?? '') : '';
  const method = METHOD_NAME.test(first) ? first : undefined;
  // Plain fields: pino's req/res serializers would rewrite objects under those keys.
  return { method: request.method, path, ...(method ? { apiMethod: method } : {}), status: statusCode, ms: Math.round(elapsedMs * 10) / 10 };
}

/**
 * Fastify's request log lines: one per request once it is answered (method, path, status, time),
 * instead of Fastify's two (incoming, completed). At info in development; at debug in production,
 * so none at the default level there (the work of building it is skipped when its level is off).
 * A failure to write the answer (the client went away) is that one line, at error.
 */
export class OneLinePerRequest extends LogController {
  private readonly level: 'info' | 'debug';

  constructor(production: boolean) {
    super();
    this.level = production ? 'debug' : 'info';
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      request.log.error({ ...requestLogFields(request, reply.statusCode, reply.elapsedTime), error: safeError(error) }, 'request errored');
    } else if ((request.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(this.level)) {
      request.log[this.level](requestLogFields(request, reply.statusCode, reply.elapsedTime), 'request');
    }
  }
}
