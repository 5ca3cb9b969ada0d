/** The profile views' wording for the platform's states and the machines' codes. */
import { useLingui } from '@lingui/react/macro';
import type { DocumentState } from '../../../api/verification.ts';
import type { CodeConfirmErrorCode } from '../../../machines/code-confirm/code-confirm.machine.ts';
import type { AddressErrorCode, AddressTypeValue } from '../../../machines/address-edit/address-edit.rules.ts';

/** The derived document states (document 1 §3) in words. */
export function useDocumentStateNames(): Record<DocumentState, string> {
  const { t } = useLingui();
  return {
    none: t`Not uploaded`,
    pending: t`Being checked`,
    validated: t`Verified`,
    expiredSoon: t`Verified, expires soon`,
    expired: t`Expired`,
    rejected: t`Rejected`,
    notRequired: t`Not required`,
  };
}

/** Document status ids (document 1 §3) in words. */
export function useDocumentStatusName(): (statusId: number) => string {
  const { t } = useLingui();
  const names: Record<number, string> = {
    0: t`Submitted`,
    2: t`Confirmed`,
    4: t`Canceled`,
    5: t`Deleted`,
    26: t`Rejected`,
    31: t`Under investigation`,
    38: t`Expired`,
    41: t`Pending`,
    64: t`Name mismatch`,
  };
  return (statusId) => names[statusId] ?? t`Unknown`;
}

export function useAddressStatusNames(): Record<'unconfirmed' | 'confirmed' | 'pending' | 'rejected' | 'nameMismatch', string> {
  const { t } = useLingui();
  return { unconfirmed: t`Not confirmed`, confirmed: t`Confirmed`, pending: t`Being checked`, rejected: t`Rejected`, nameMismatch: t`Name mismatch` };
}

export function useAddressTypeNames(): Record<AddressTypeValue, string> {
  const { t } = useLingui();
  return { unspecified: t`Other`, home: t({ message: `Home`, context: `address type` }), residence: t`Residence`, business: t`Business`, homeAndBusiness: t`Home and business`, office: t`Office` };
}

export function useUsernameStatusNames(): Record<'active' | 'failed' | 'pending', string> {
  const { t } = useLingui();
  return { active: t`Waiting for the code`, pending: t`Waiting for identity verification`, failed: t`Failed` };
}

/** The username change's log events (server/modules/profile) in words; unknown ones as they are. */
export function useUsernameEventName(): (event: string) => string {
  const { t } = useLingui();
  const names: Record<string, string> = {
    created: t`Requested`,
    codeSent: t`Code sent`,
    wrongCode: t`Wrong code entered`,
    emailConfirmed: t`Address confirmed`,
    completed: t`Username changed`,
    canceled: t`Canceled`,
    failed: t`Failed`,
  };
  return (event) => names[event] ?? event;
}

export function useCodeErrorText(): (code: CodeConfirmErrorCode, detail: string | null) => string {
  const { t } = useLingui();
  return (code, detail) => {
    switch (code) {
      case 'codeFormat':
        return t`Enter the 6-digit code.`;
      case 'wrongCode':
        // detail: the platform's VF in the customer's words (describeFailure)
        return detail ?? t`The code was not accepted.`;
      case 'network':
        return t`The connection failed. Try again.`;
      case 'refused':
        return detail ?? t`Unknown error`;
    }
  };
}

export function useAddressErrorText(): (code: AddressErrorCode, detail: string | null) => string {
  const { t } = useLingui();
  const texts: Record<Exclude<AddressErrorCode, 'platform'>, string> = {
    required: t`This is required.`,
    tooLong: t`This is too long.`,
    countryCode: t`Choose a country.`,
    fileEmpty: t`The file is empty. Choose another file.`,
    fileTooLarge: t`The file is larger than 10 MB. Choose a smaller file.`,
    fileType: t`Choose a JPEG, PNG or PDF file.`,
    invalidDate: t`Enter a valid date.`,
    issuedInFuture: t`The issue date cannot be in the future.`,
    expired: t`The document has expired. Upload a valid document.`,
    expiresBeforeIssued: t`The expiry date must be after the issue date.`,
  };
  return (code, detail) => (code === 'platform' ? (detail ?? t`Unknown error`) : texts[code]);
}
