/** Snapshot -> view facts for sign-in. The login view reads only through this. */
import type { SnapshotFrom } from 'xstate';
import type { PushMigration } from '../../api/auth.ts';
import type { LoginMachine, LoginContext, LoginErrorCode, LoginFieldError } from './login.machine.ts';

export type LoginSnapshot = SnapshotFrom<LoginMachine>;

export type LoginStep =
  | 'credentials'
  | 'otp'
  | 'sms'
  /** a linked phone approves (push: one phone or none; verifyDevice: the user picks one) */
  | 'push'
  | 'verifyDevice'
  | 'recovery'
  /** exchanging a code that needs no input (query code, approved push, direct) */
  | 'verifying'
  | 'signedIn';

export type ApprovalStage = 'noDevice' | 'choosingDevice' | 'resending' | 'waiting' | 'expired';

export interface LoginView {
  step: LoginStep;
  busy: boolean;
  approvalStage: ApprovalStage | null;
  /** phones that can approve (push, verifyDevice) */
  devices: { id: number; name: string; type: 'android' | 'ios' }[];
  chosenDeviceId: number | null;
  /** the link a linked phone opens (shown as a QR code) to approve this sign-in */
  qrLink: string | null;
  /** a push 2FA migration to announce on the second step (soft: days left; strict: required now) */
  migration: PushMigration | null;
  maskedPhone: string | null;
  smsIdentifier: string | null;
  username: string;
  error: LoginErrorCode | null;
  fieldErrors: LoginContext['fieldErrors'];
  canGoBack: boolean;
  canUseRecoveryCode: boolean;
  canResend: boolean;
  canChangeDevice: boolean;
}

function stepOf(s: LoginSnapshot): LoginStep {
  if (s.matches('credentials') || s.matches('signingIn') || s.matches('idle')) return 'credentials';
  if (s.matches('otp') || s.matches('verifyingOtp')) return 'otp';
  if (s.matches('sms') || s.matches('verifyingSms')) return 'sms';
  if (s.matches('approval')) return s.context.step?.authFlow === 'verifyDevice' ? 'verifyDevice' : 'push';
  if (s.matches('recovery') || s.matches('verifyingRecovery')) return 'recovery';
  if (s.matches('signedIn')) return 'signedIn';
  return 'verifying';
}

function approvalStageOf(s: LoginSnapshot): ApprovalStage | null {
  for (const stage of ['noDevice', 'choosingDevice', 'resending', 'waiting', 'expired'] as const) {
    if (s.matches({ approval: stage })) return stage;
  }
  return null;
}

export function selectLoginView(s: LoginSnapshot): LoginView {
  const step = s.context.step;
  const approval = step?.authFlow === 'push' || step?.authFlow === 'verifyDevice' ? step : null;
  return {
    step: stepOf(s),
    busy: s.hasTag('busy'),
    approvalStage: approvalStageOf(s),
    devices: approval ? approval.deviceList.map(({ id, name, type }) => ({ id, name, type })) : [],
    chosenDeviceId: s.context.chosenDeviceId,
    qrLink: approval ? approval.qrLink : null,
    migration: s.context.migration,
    maskedPhone: step?.authFlow === 'sms' ? step.phone : null,
    smsIdentifier: step?.authFlow === 'sms' ? step.identifier : null,
    username: s.context.username,
    error: s.context.error,
    fieldErrors: s.context.fieldErrors,
    canGoBack: s.can({ type: 'STEP.BACK' }),
    canUseRecoveryCode: s.can({ type: 'RECOVERY.START' }),
    canResend: s.can({ type: 'PUSH.RESEND' }),
    canChangeDevice: s.can({ type: 'DEVICE.CHANGE' }),
  };
}

export type { LoginErrorCode, LoginFieldError };
