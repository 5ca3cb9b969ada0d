/**
 * The token service's REST paths (api/auth.ts): every error is `{ message }` with 403, 404 or
 * 429 (with `retryAfterS` and Retry-After); bodies are validated with the contract's valibot
 * schemas. Sign-in reads and sets the browser's device cookie (sign-in-throttle.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { authPaths, DeviceTokenRequestSchema, LoginRequestSchema, RefreshRequestSchema, UserTokenRequestSchema } from '../../../api/auth.ts';
import { issuesToValidationErrors, joinValidationErrors } from '../../../api/envelope.ts';
import { safeError } from '../platform/log.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import { AuthFailure, MAX_USER_AGENT_LENGTH, type SignInContext, type TokenService } from './tokens.service.ts';
import { deviceCookieHeader, parseCookies } from './sign-in-throttle.ts';

/** Address, user agent and origin of the browser (links it is shown start at its own origin). */
export function signInContextOf(request: FastifyRequest): SignInContext {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: typeof agent === 'string' ? agent.slice(0, MAX_USER_AGENT_LENGTH) : '',
    origin: `${request.protocol}://${request.host}`,
  };
}

export async function authRoutes(app: FastifyInstance, { tokens, secureCookies }: { tokens: TokenService; secureCookies: boolean }): Promise<void> {
  /** Sign-in context plus the device cookies: read from the request, set on the reply once signed in. */
  const withDeviceCookies = (request: FastifyRequest, reply: FastifyReply): SignInContext => ({
    ...signInContextOf(request),
    cookies: parseCookies(request.headers.cookie),
    trustDevice: (name, value) => {
      reply.header('Set-Cookie', deviceCookieHeader(name, value, secureCookies || request.protocol === 'https'));
    },
  });

  const parse = <S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> => {
    const result = v.safeParse(schema, body ?? {}, { abortEarly: false });
    if (!result.success) throw new AuthFailure(403, joinValidationErrors(issuesToValidationErrors(result.issues)));
    return result.output;
  };

  const answerFailure = (reply: FastifyReply, err: unknown, log: FastifyInstance['log']) => {
    if (err instanceof AuthFailure) {
      if (err.retryAfterS === undefined) return reply.code(err.statusCode).send({ message: err.message });
      return reply.code(err.statusCode).header('Retry-After', String(err.retryAfterS)).send({ message: err.message, retryAfterS: err.retryAfterS });
    }
    if (isConnectionError(err)) return replyUnavailable(reply, false);
    log.error({ error: safeError(err) }, 'token service failed');
    return reply.code(500).send({ message: 'Server error' });
  };

  app.post(authPaths.login, async (request, reply) => {
    try {
      const input = parse(LoginRequestSchema, request.body);
      return reply.send(await tokens.login(input, withDeviceCookies(request, reply)));
    } catch (err) {
      return answerFailure(reply, err, request.log);
    }
  });

  app.post(authPaths.token, async (request, reply) => {
    try {
      // Two shapes; the one with `secret` is a device's, so a validation error names real fields.
      const body = request.body;
      if (body !== null && typeof body === 'object' && 'secret' in body) {
        const device = parse(DeviceTokenRequestSchema, body);
        return reply.send(await tokens.signInDevice(device.secret));
      }
      const input = parse(UserTokenRequestSchema, body);
      return reply.send(await tokens.exchangeCode(input, withDeviceCookies(request, reply)));
    } catch (err) {
      return answerFailure(reply, err, request.log);
    }
  });

  app.post(authPaths.refresh, async (request, reply) => {
    try {
      const input = parse(RefreshRequestSchema, request.body);
      return reply.send(await tokens.refresh(input.refreshToken));
    } catch (err) {
      return answerFailure(reply, err, request.log);
    }
  });

  app.post(authPaths.logout, async (request, reply) => {
    try {
      const input = parse(RefreshRequestSchema, request.body);
      await tokens.logout(input.refreshToken);
      return reply.code(204).send();
    } catch (err) {
      return answerFailure(reply, err, request.log);
    }
  });
}
