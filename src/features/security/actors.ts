/**
 * The real actors of the two-step, recovery codes and single sign-on machines (machines/two-step,
 * machines/recovery-codes, machines/sso): token-service calls whose failures become the machines'
 * error codes, the live channel wait for a phone's approval, and the session hooks the route
 * passes in.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { TwoStepEvent, ConfirmResult, StartResult, TwoStepErrorCode } from '../../../machines/two-step/two-step.machine.ts';
import type { AuthorizeResult, DecideResult } from '../../../machines/sso/sso.machine.ts';
import type { RecoveryCodesErrorCode, RenewResult } from '../../../machines/recovery-codes/recovery-codes.machine.ts';
import {
  RecoveryCodesCreateResponseSchema,
  securityPaths,
  SeiAuthorizeResponseSchema,
  SeiDecisionResponseSchema,
  TwoStepConfirmResponseSchema,
  TwoStepMessages,
  TwoStepSetResponseSchema,
  type TwoStepModeCode,
} from '../../../api/security.ts';
import { getPushUrl } from '../../lib/api-base.ts';
import { connectPush } from '../../lib/push-client.ts';
import { NO_ANSWER, securityCall, type SecurityResult, type SessionAccess } from './rest.ts';

/** The platform's messages (api/security.ts TwoStepMessages) as machine codes. */
const MESSAGE_CODES: Partial<Record<string, TwoStepErrorCode>> = {
  [TwoStepMessages.linkPhone]: 'noDevice',
  [TwoStepMessages.noPhone]: 'noPhone',
  [TwoStepMessages.tooManyRequests]: 'tooManyRequests',
  [TwoStepMessages.wrongCode]: 'wrongCode',
  [TwoStepMessages.tooManyWrong]: 'tooManyWrong',
  [TwoStepMessages.unknownRequest]: 'expired',
  [TwoStepMessages.declined]: 'declined',
  [TwoStepMessages.waitingForPhone]: 'waiting',
  [TwoStepMessages.signInModeRequired]: 'setupRequired',
  [TwoStepMessages.wrongPassword]: 'wrongPassword',
  [TwoStepMessages.tooManyPasswords]: 'tooManyPasswords',
};

export function twoStepErrorOf(result: Extract<SecurityResult<unknown>, { ok: false }>): TwoStepErrorCode {
  if (result.status === NO_ANSWER) return 'network';
  const known = MESSAGE_CODES[result.message];
  if (known) return known;
  if (result.status === 429) return 'tooManyRequests';
  if (result.status === 404) return 'expired';
  return 'unknown';
}

export function createTwoStepActors(session: SessionAccess) {
  return {
    startMode: fromPromise<StartResult, { mode: TwoStepModeCode; approvalCode: string | null; password: string }>(async ({ input }) => {
      const body = { mode: input.mode, password: input.password, ...(input.mode === 4 ? { approvalCode: input.approvalCode } : {}) };
      const r = await securityCall(session, 'POST', securityPaths.twoStep, body, TwoStepSetResponseSchema);
      return r.ok ? { ok: true, request: r.data } : { ok: false, code: twoStepErrorOf(r) };
    }),
    confirmMode: fromPromise<ConfirmResult, { reqId: string; code: string | null }>(async ({ input }) => {
      const body = input.code === null ? {} : { code: input.code };
      const r = await securityCall(session, 'POST', securityPaths.twoStepConfirm(input.reqId), body, TwoStepConfirmResponseSchema);
      return r.ok ? { ok: true, answer: r.data } : { ok: false, code: twoStepErrorOf(r) };
    }),
    /** The live channel while a phone is asked: TwoStepVerificationConfirmed ends the wait. */
    awaitApproval: fromCallback<TwoStepEvent, { reqId: string }>(({ sendBack }) =>
      connectPush({
        url: getPushUrl(),
        getToken: () => session.getAccessToken(),
        onEvent: (event) => {
          if (event.type === 'TwoStepVerificationConfirmed' && event.mode === 1) sendBack({ type: 'APPROVAL.CONFIRMED' });
        },
      }),
    ),
    refreshSession: fromPromise<boolean>(() => session.refresh().catch(() => false)),
  };
}

/**
 * POST /auth/recovery-codes refuses with the password messages only (403 wrongPassword, 429
 * tooManyPasswords); anything else is unexpected here.
 */
export function recoveryCodesErrorOf(result: Extract<SecurityResult<unknown>, { ok: false }>): RecoveryCodesErrorCode {
  if (result.status === NO_ANSWER) return 'network';
  const known = MESSAGE_CODES[result.message];
  if (known === 'wrongPassword' || known === 'tooManyPasswords') return known;
  // The only limit on this path is the sign-in failure limit.
  if (result.status === 429) return 'tooManyPasswords';
  return 'unknown';
}

export function createRecoveryCodesActors(session: SessionAccess) {
  return {
    renewCodes: fromPromise<RenewResult, { password: string }>(async ({ input }) => {
      const r = await securityCall(session, 'POST', securityPaths.recoveryCodes, { password: input.password }, RecoveryCodesCreateResponseSchema);
      return r.ok ? { ok: true, recoveryCodes: r.data.recoveryCodes } : { ok: false, code: recoveryCodesErrorOf(r) };
    }),
  };
}

export function createSsoActors(session: SessionAccess & { logout(): Promise<void>; assign(url: string): void }) {
  const codeOf = (r: Extract<SecurityResult<unknown>, { ok: false }>) => (r.status === 404 ? 'notFound' : r.status === NO_ANSWER ? 'network' : 'unknown') as 'notFound' | 'network' | 'unknown';
  return {
    authorize: fromPromise<AuthorizeResult, { authorizeUrl: string }>(async ({ input }) => {
      const r = await securityCall(session, 'POST', securityPaths.seiAuthorize, { authorizeUrl: input.authorizeUrl }, SeiAuthorizeResponseSchema);
      return r.ok ? { ok: true, authorization: r.data } : { ok: false, code: codeOf(r) };
    }),
    decide: fromPromise<DecideResult, { authorizationId: string; approve: boolean }>(async ({ input }) => {
      const r = await securityCall(session, 'POST', securityPaths.seiAuthorization(input.authorizationId), { params: { approve: input.approve } }, SeiDecisionResponseSchema);
      return r.ok ? { ok: true, redirectUri: r.data.redirect_uri } : { ok: false, code: codeOf(r) };
    }),
    /** Document 1 §7: the app logs out, then the browser goes to the partner. */
    leave: fromPromise<void, { redirectUri: string }>(async ({ input }) => {
      try {
        await session.logout();
      } finally {
        session.assign(input.redirectUri);
      }
    }),
  };
}
