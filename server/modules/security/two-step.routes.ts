/**
 * Two-step verification settings and recovery codes (api/security.ts). Restricted sessions
 * ('setup2fa' after a recovery-code sign-in, 'scp' during a strict push migration) may use them:
 * setting up a second step is exactly what those sessions exist for.
 */
import type { FastifyInstance } from 'fastify';
import {
  RecoveryCodesCreateRequestSchema,
  securityPaths,
  TwoStepConfirmRequestSchema,
  TwoStepSetRequestSchema,
} from '../../../api/security.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import type { PushPublisher } from '../push/publisher.ts';
import { answerFailure, parseBody, publishAll, requireUser, userAgentOf } from './http.ts';
import type { TwoStepService } from './two-step.service.ts';

export interface TwoStepRoutesOptions {
  tokens: Pick<TokenService, 'authenticate'>;
  twoStep: TwoStepService;
  publisher: PushPublisher;
}

export async function twoStepRoutes(app: FastifyInstance, { tokens, twoStep, publisher }: TwoStepRoutesOptions): Promise<void> {
  app.post(securityPaths.twoStep, async (request, reply) => {
    try {
      const caller = await requireUser(tokens, request);
      const input = parseBody(TwoStepSetRequestSchema, request.body);
      const { answer, publish } = await twoStep.start(caller, input, { ip: request.ip, userAgent: userAgentOf(request) });
      publishAll(publisher, request, publish);
      return reply.send(answer);
    } catch (err) {
      return answerFailure(reply, request, err);
    }
  });

  app.post<{ Params: { reqId: string } }>('/auth/two-step-verification/:reqId/confirm', async (request, reply) => {
    try {
      const caller = await requireUser(tokens, request);
      const input = parseBody(TwoStepConfirmRequestSchema, request.body);
      const { answer, publish } = await twoStep.confirm(caller, request.params.reqId, input.code);
      publishAll(publisher, request, publish);
      return reply.send(answer);
    } catch (err) {
      return answerFailure(reply, request, err);
    }
  });

  app.get(securityPaths.recoveryCodes, async (request, reply) => {
    try {
      const caller = await requireUser(tokens, request);
      return reply.send(await twoStep.recoveryCodesStatus(caller));
    } catch (err) {
      return answerFailure(reply, request, err);
    }
  });

  app.post(securityPaths.recoveryCodes, async (request, reply) => {
    try {
      const caller = await requireUser(tokens, request);
      const input = parseBody(RecoveryCodesCreateRequestSchema, request.body);
      return reply.send(await twoStep.regenerateRecoveryCodes(caller, input.password));
    } catch (err) {
      return answerFailure(reply, request, err);
    }
  });
}
