/** What the security routes share: body validation, the bearer caller and error answers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { issuesToValidationErrors, joinValidationErrors } from '../../../api/envelope.ts';
import { AuthFailure, MAX_USER_AGENT_LENGTH, type TokenService } from '../auth/tokens.service.ts';
import type { Caller } from '../method-types.ts';
import { bearerToken } from '../platform/bearer.ts';
import { safeError } from '../platform/log.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import type { Publication } from './two-step.service.ts';
import type { PushPublisher } from '../push/publisher.ts';

export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body ?? {}, { abortEarly: false });
  if (!result.success) throw new AuthFailure(403, joinValidationErrors(issuesToValidationErrors(result.issues)));
  return result.output;
}

/** The signed-in user of a bearer token (restricted sessions included: each route decides). */
export async function requireUser(tokens: Pick<TokenService, 'authenticate'>, request: FastifyRequest): Promise<Caller & { restriction?: string | null }> {
  const caller = await tokens.authenticate(bearerToken(request));
  // 401, as every other bearer path answers: the client refreshes once and replays (document 1 §4).
  if (!caller) throw new AuthFailure(401, 'Sign-in required');
  return caller;
}

export function userAgentOf(request: FastifyRequest): string {
  const ua = request.headers['user-agent'];
  return typeof ua === 'string' ? ua.slice(0, MAX_USER_AGENT_LENGTH) : '';
}

export function answerFailure(reply: FastifyReply, request: FastifyRequest, err: unknown) {
  if (err instanceof AuthFailure) return reply.code(err.statusCode).send({ message: err.message });
  if (isConnectionError(err)) return replyUnavailable(reply, false);
  request.log.error({ error: safeError(err) }, 'security route failed');
  return reply.code(500).send({ message: 'Server error' });
}

/** Publishes after the service's transaction committed; a failed publish is logged, not answered. */
export function publishAll(publisher: PushPublisher, request: FastifyRequest, publications: Publication[]): void {
  for (const p of publications) {
    publisher.publish(p.customerId, p.event).catch((err: unknown) => request.log.error({ error: safeError(err) }, 'push publish failed'));
  }
}
