/** The security views' wording for machine codes and mode numbers (machines emit codes only). */
import { useLingui } from '@lingui/react/macro';
import type { TwoStepModeCode } from '../../../api/security.ts';
import type { TwoStepErrorCode } from '../../../machines/two-step/two-step.machine.ts';
import type { SsoErrorCode } from '../../../machines/sso/sso.machine.ts';
import type { RecoveryCodesErrorCode } from '../../../machines/recovery-codes/recovery-codes.machine.ts';

export function useModeNames(): Record<TwoStepModeCode, string> {
  const { t } = useLingui();
  return {
    1: t`Approval on a linked phone`,
    2: t`Code by SMS`,
    3: t`Authenticator app`,
    4: t`Approval code`,
  };
}

export function useTwoStepErrors(): Record<TwoStepErrorCode, string> {
  const { t } = useLingui();
  return {
    approvalCodeInvalid: t`Enter an approval code of 6 digits.`,
    passwordRequired: t`Enter your current password to change how you confirm sign-ins.`,
    wrongPassword: t`The password is not correct.`,
    tooManyPasswords: t`Too many wrong passwords. Wait a few minutes and try again.`,
    noDevice: t`Link a phone first: approvals need a linked phone.`,
    noPhone: t`Add and confirm a phone number first.`,
    tooManyRequests: t`Too many changes were started. Try again in 10 minutes.`,
    setupRequired: t`You signed in with a recovery code: choose a way to sign in (phone, SMS or authenticator app).`,
    wrongCode: t`That code is not right. Check it and try again.`,
    tooManyWrong: t`Too many wrong codes. Start again.`,
    expired: t`The change expired. Start again.`,
    declined: t`The change was declined on your phone.`,
    waiting: t`Your phone has not approved the change yet.`,
    network: t`The connection failed. Try again.`,
    unknown: t`Something went wrong. Try again.`,
  };
}

/** The same wording as the two-step errors where the failure is the same. */
export function useRecoveryCodesErrors(): Record<RecoveryCodesErrorCode, string> {
  const { t } = useLingui();
  return {
    passwordRequired: t`Enter your current password to get new recovery codes.`,
    wrongPassword: t`The password is not correct.`,
    tooManyPasswords: t`Too many wrong passwords. Wait a few minutes and try again.`,
    network: t`The connection failed. Try again.`,
    unknown: t`Something went wrong. Try again.`,
  };
}

export function useSsoErrors(): Record<SsoErrorCode, string> {
  const { t } = useLingui();
  return {
    notFound: t`This sign-in request is not known.`,
    network: t`The connection failed. Try again.`,
    unknown: t`Something went wrong. Try again.`,
  };
}
