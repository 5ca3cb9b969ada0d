/**
 * The built-in e-signature's signing page over REST (api/esign.ts has the paths, bodies and
 * errors). No bearer token: the secret in the path authorises, as the identity-verification job's
 * page does (profile.routes.ts identityJobRoute).
 *
 * The secret is in the path, so these routes' request lines are never logged (logLevel warn: the
 * platform's one line per request is at info; an errored request's line has its path redacted by
 * platform/log.ts requestLogFields), and errors are logged without the request. Each route allows
 * SIGNING_RATE_PER_MINUTE requests a minute per address (the global limiter's per-route override):
 * a token cannot be guessed (256 bits), but the PDF and the stamping are work worth capping.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { esignPdfRoute, esignSignRoute, esignStateRoute } from '../../../api/esign.ts';
import { vf, VfCode } from '../../../api/errors.ts';
import type { Db } from '../../db/types.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import { safeError } from '../platform/log.ts';
import { EsignFailure, readSigningPdf, readSigningState, signDocument } from './builtin.ts';

/** Requests a minute per address on each signing route (not shown in the spec). */
export const SIGNING_RATE_PER_MINUTE = 60;

export interface EsignRoutesOptions {
  db: Db;
  now?: () => number;
}

/** `inline` with the stored file name (ASCII fallback and RFC 5987 `filename*`), as attachmentDisposition. */
export function inlineDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export async function esignRoutes(app: FastifyInstance, options: EsignRoutesOptions): Promise<void> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const routeOptions = { logLevel: 'warn' as const, config: { rateLimit: { max: SIGNING_RATE_PER_MINUTE, timeWindow: 60_000 } } };
  const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;

  const handle = (run: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await run(request, reply);
    } catch (err) {
      if (err instanceof EsignFailure) {
        return reply
          .code(err.statusCode)
          .header('Cache-Control', 'no-store')
          .send({ responseCode: err.responseCode, responseDescription: err.message, ...(err.validationErrors ? { validationErrors: err.validationErrors } : {}) });
      }
      if (isConnectionError(err)) return replyUnavailable(reply);
      request.log.error({ error: safeError(err) }, 'e-signature route failed');
      return reply.code(500).send({ responseCode: 'UE', responseDescription: 'Unknown error' });
    }
  };

  app.get(
    esignStateRoute,
    routeOptions,
    handle(async (request, reply) => {
      const state = await readSigningState(db, tokenOf(request), now());
      return reply.code(200).header('Cache-Control', 'no-store').send(state);
    }),
  );

  // The signing page shows the PDF in a frame: this answer alone may be framed by the app's own
  // pages (the platform's headers say never framed; a route's onSend hook runs after them), and its
  // policy lets the browser's PDF viewer run in it and nothing else.
  app.get(
    esignPdfRoute,
    {
      ...routeOptions,
      onSend: (_request, reply, payload, done) => {
        reply.header('X-Frame-Options', 'SAMEORIGIN');
        reply.header('Content-Security-Policy', "default-src 'none'; object-src 'self'; frame-ancestors 'self'");
        done(null, payload);
      },
    },
    handle(async (request, reply) => {
      const { pdf, fileName } = await readSigningPdf(db, tokenOf(request), now());
      return reply.code(200).header('Content-Type', 'application/pdf').header('Content-Disposition', inlineDisposition(fileName)).header('Cache-Control', 'no-store').send(pdf);
    }),
  );

  app.post(
    esignSignRoute,
    routeOptions,
    handle(async (request, reply) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignFailure(400, 'VF', 'Invalid request', [vf('body', VfCode.notJsonBody)]);
      const b = body as Record<string, unknown>;
      const userAgent = request.headers['user-agent'];
      const signed = await db.transaction((tx) =>
        signDocument(tx, {
          token: tokenOf(request),
          typedName: b.typedName,
          strokes: b.strokes,
          consent: b.consent,
          ip: request.ip,
          userAgent: typeof userAgent === 'string' ? userAgent : '',
          nowMs: now(),
        }),
      );
      return reply.code(200).header('Cache-Control', 'no-store').send(signed);
    }),
  );
}
