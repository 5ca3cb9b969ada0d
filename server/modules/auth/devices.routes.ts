/**
 * The token service's device and approval paths (api/devices.ts, api/auth.ts): linked devices,
 * approval answers, re-sends, the /scp deeplink and the companion link by SMS. Errors are
 * `{ message }` with 403, 404 or 429; a missing or invalid bearer is 401 (the web app's request
 * wrapper refreshes and replays on it, as for named methods).
 *
 * User endpoints accept restricted sessions (AccessClaims.rst): linking a phone is how push gets
 * enabled, which is what a strict migration ('scp') asks for. Device tokens are refused on them.
 */
import { bearerToken } from '../platform/bearer.ts';
import { isIdText } from '../../../api/method.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { authPaths } from '../../../api/auth.ts';
import {
  devicePaths,
  DeviceApproveMethodRequestSchema,
  DeviceApproveRequestSchema,
  DeviceCreateRequestSchema,
  LoginConfirmRequestSchema,
  PushResendRequestSchema,
  StoresUrlsSendRequestSchema,
} from '../../../api/devices.ts';
import { issuesToValidationErrors, joinValidationErrors } from '../../../api/envelope.ts';
import type { Caller } from '../method-types.ts';
import { safeError } from '../platform/log.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import type { ApprovalService } from './approvals.service.ts';
import { toWireDevice, type DeviceCaller, type DeviceService } from './devices.service.ts';
import { AuthFailure, type TokenService } from './tokens.service.ts';

/** Thrown for a missing or invalid bearer: answered 401. */
class Unauthenticated extends Error {}


export interface DeviceRoutesOptions {
  tokens: TokenService;
  devices: DeviceService;
  approvals: ApprovalService;
}

export async function deviceRoutes(app: FastifyInstance, { tokens, devices, approvals }: DeviceRoutesOptions): Promise<void> {
  const parse = <S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> => {
    const result = v.safeParse(schema, body ?? {}, { abortEarly: false });
    if (!result.success) throw new AuthFailure(403, joinValidationErrors(issuesToValidationErrors(result.issues)));
    return result.output;
  };

  const idParam = (request: FastifyRequest, name = 'id'): number => {
    const raw = (request.params as Record<string, string | undefined>)[name];
    if (!raw || !isIdText(raw)) throw new AuthFailure(404, 'Not found');
    return Number(raw);
  };

  const user = async (request: FastifyRequest): Promise<Caller> => {
    const token = bearerToken(request);
    // A device token never acts as its user (even where the user check would accept its claims).
    if (!token || devices.isDeviceToken(token)) throw new Unauthenticated();
    const caller = await tokens.authenticate(token);
    if (!caller) throw new Unauthenticated();
    return caller;
  };

  const device = async (request: FastifyRequest): Promise<DeviceCaller> => {
    const caller = await devices.authenticateDevice(bearerToken(request));
    if (!caller) throw new Unauthenticated();
    return caller;
  };

  /** The origin the browser used (behind a proxy: its X-Forwarded-Proto/Host with TRUST_PROXY). */
  const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  const handle =
    (run: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const answer = await run(request, reply);
        if (answer === undefined) return reply.code(204).send();
        return reply.send(answer);
      } catch (err) {
        if (err instanceof Unauthenticated) return reply.code(401).send({ message: 'Sign-in required' });
        if (err instanceof AuthFailure) return reply.code(err.statusCode).send({ message: err.message });
        if (isConnectionError(err)) return replyUnavailable(reply, false);
        request.log.error({ error: safeError(err) }, 'device service failed');
        return reply.code(500).send({ message: 'Server error' });
      }
    };

  // Registered before /auth/devices/:id so the static segment wins (find-my-way prefers it anyway).
  app.get(
    devicePaths.approveMethods,
    handle(async () => devices.approveMethods()),
  );

  app.get(
    devicePaths.devices,
    handle(async (request) => devices.list((await user(request)).userId)),
  );

  app.post(
    devicePaths.devices,
    handle(async (request) => {
      const caller = await user(request);
      const input = parse(DeviceCreateRequestSchema, request.body);
      return devices.create(caller.userId, input.name, originOf(request));
    }),
  );

  app.get(
    '/auth/devices/:id',
    handle(async (request) => {
      const caller = await user(request);
      return devices.get(caller.userId, idParam(request));
    }),
  );

  app.delete(
    '/auth/devices/:id',
    handle(async (request) => {
      const caller = await user(request);
      await devices.unlink(caller.userId, idParam(request));
      return undefined;
    }),
  );

  app.post(
    '/auth/devices/:id/approve',
    handle(async (request) => {
      const id = idParam(request);
      const input = parse(DeviceApproveRequestSchema, request.body);
      return devices.approve(id, input, request.ip);
    }),
  );

  app.patch(
    '/auth/devices/:id/approve/:methodId',
    handle(async (request) => {
      const caller = await user(request);
      const id = idParam(request);
      const methodId = idParam(request, 'methodId');
      const input = parse(DeviceApproveMethodRequestSchema, request.body);
      return devices.setApproveMethod(caller.userId, id, methodId, input.enabled);
    }),
  );

  app.get(
    devicePaths.deviceApi,
    handle(async (request) => {
      const caller = await device(request);
      const { device: row, login } = await devices.describe(caller);
      return { device: toWireDevice(row), login, pending: await approvals.pendingForDevice(caller, row.approveMethodIds) };
    }),
  );

  app.delete(
    '/device-api/device/:id',
    handle(async (request) => {
      const caller = await device(request);
      await devices.unlinkSelf(caller, idParam(request));
      return undefined;
    }),
  );

  app.put(
    '/auth/login/:key/confirm',
    handle(async (request) => {
      const caller = await device(request);
      const key = (request.params as { key?: string }).key ?? '';
      if (key.length === 0 || key.length > 128) throw new AuthFailure(404, 'Unknown approval request');
      const input = parse(LoginConfirmRequestSchema, request.body);
      return approvals.answer(caller, key, input.result);
    }),
  );

  app.post(
    authPaths.pushResend,
    handle(async (request) => {
      const input = parse(PushResendRequestSchema, request.body);
      return approvals.resend(input.temporaryToken, input.deviceId);
    }),
  );

  app.post(
    authPaths.scpRequest,
    handle(async (request) => devices.scpRequest((await user(request)).userId, originOf(request))),
  );

  app.post(
    authPaths.storesUrlsSend,
    handle(async (request) => {
      const caller = await user(request);
      const input = parse(StoresUrlsSendRequestSchema, request.body);
      await devices.sendCompanionLink(caller.userId, input.phoneNumber, originOf(request));
      return undefined;
    }),
  );
}
