/** Snapshot -> view facts for sign-in. The login view reads only through this. */
import type { SnapshotFrom } from 'xstate';
import type { LoginMachine, LoginContext, LoginErrorCode, LoginFieldError } from './login.machine.ts';

export type LoginSnapshot = SnapshotFrom<LoginMachine>;

export type LoginStep =
  | 'credentials'
  | 'otp'
  | 'sms'
  | 'push'
  | 'verifyDevice'
  | 'direct'
  /** exchanging a code that needs no input (query code, approved push or device) */
  | 'verifying'
  | 'signedIn';

export type PushStage = 'migrationRequired' | 'migrationOffered' | 'migrating' | 'awaitingApproval';

export interface LoginView {
  step: LoginStep;
  busy: boolean;
  /** the flow is charted but not yet offered on this platform */
  notYetAvailable: boolean;
  pushStage: PushStage | null;
  migrationDaysLeft: number | null;
  maskedPhone: string | null;
  smsIdentifier: string | null;
  username: string;
  error: LoginErrorCode | null;
  fieldErrors: LoginContext['fieldErrors'];
  canGoBack: boolean;
}

function stepOf(s: LoginSnapshot): LoginStep {
  if (s.matches('credentials') || s.matches('signingIn') || s.matches('idle')) return 'credentials';
  if (s.matches('otp') || s.matches('verifyingOtp')) return 'otp';
  if (s.matches('sms') || s.matches('verifyingSms')) return 'sms';
  if (s.matches('push')) return 'push';
  if (s.matches('verifyDevice')) return 'verifyDevice';
  if (s.matches('direct')) return 'direct';
  if (s.matches('signedIn')) return 'signedIn';
  return 'verifying';
}

function pushStageOf(s: LoginSnapshot): PushStage | null {
  for (const stage of ['migrationRequired', 'migrationOffered', 'migrating', 'awaitingApproval'] as const) {
    if (s.matches({ push: stage })) return stage;
  }
  return null;
}

export function selectLoginView(s: LoginSnapshot): LoginView {
  const step = s.context.step;
  return {
    step: stepOf(s),
    busy: s.hasTag('busy'),
    notYetAvailable: s.hasTag('notYetAvailable'),
    pushStage: pushStageOf(s),
    migrationDaysLeft: step?.authFlow === 'push' ? (step.migration?.daysLeft ?? null) : null,
    maskedPhone: step?.authFlow === 'sms' ? step.phone : null,
    smsIdentifier: step?.authFlow === 'sms' ? step.identifier : null,
    username: s.context.username,
    error: s.context.error,
    fieldErrors: s.context.fieldErrors,
    canGoBack: s.can({ type: 'STEP.BACK' }),
  };
}

export type { LoginErrorCode, LoginFieldError };
