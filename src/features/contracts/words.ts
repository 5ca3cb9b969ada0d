/**
 * The contracts' words shared by the list, the contract's page and the form: status names and
 * badge tones, the verify reasons, a field error's sentence, a call failure's sentence.
 */
import { msg, t } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ContractStatus, IdentificationStatus } from '../../../api/contracts.ts';
import { isVfCode } from '../../../api/errors.ts';
import type { FieldError } from '../../../machines/contract-create/contract-create.rules.ts';
import type { VerifyReason } from '../../../machines/contract-create/contract-create.machine.ts';
import { vfSentence } from '../../lib/validation-messages.ts';
import type { BadgeTone } from '../../ui/badge.tsx';

export const statusNames: Record<ContractStatus, MessageDescriptor> = {
  UNSIGNED: msg`Not signed`,
  WAITING: msg`Waiting for a signature`,
  SIGNED: msg`Signed`,
  NEED_IDENTIFICATION: msg`Identification needed`,
  ACTIVE: msg`Active`,
  TERMINATING: msg`Ending`,
  TERMINATED: msg`Terminated`,
  EXPIRED: msg`Expired`,
  CANCELLED: msg`Cancelled`,
  REJECTED: msg`Rejected`,
};

export const statusTones: Record<ContractStatus, BadgeTone> = {
  UNSIGNED: 'warning',
  WAITING: 'warning',
  SIGNED: 'info',
  NEED_IDENTIFICATION: 'warning',
  ACTIVE: 'success',
  TERMINATING: 'info',
  TERMINATED: 'neutral',
  EXPIRED: 'neutral',
  CANCELLED: 'neutral',
  REJECTED: 'danger',
};

export function verifyReasonText(reason: VerifyReason | null): string {
  switch (reason) {
    case 'sameCustomer':
      return t`A contract needs two different customers: this is the company itself.`;
    case 'notFound':
      return t`This customer cannot be found.`;
    case 'notActive':
      return t`This customer’s account is not active, so no contract can be made with it.`;
    case 'alreadyContracted':
      return t`There is already an open contract with this customer in this direction.`;
    default:
      return t`A contract cannot be made with this customer.`;
  }
}

/** A field's problem in words: the codes of api/errors.ts, and the form's own. */
export function fieldErrorText(e: FieldError | undefined): string | undefined {
  if (!e) return undefined;
  if (e.code === 'refused') return t`Choose a counterparty a contract may be made with.`;
  if (e.code === 'required') return t`This field is required.`;
  return isVfCode(e.code) ? vfSentence(e.code, e.params ?? {}) : t`This value is not valid.`;
}

/** A failed call in words (`message`: the platform's own, already kept to English readers). */
export function failureText(code: string, message: string | null): string {
  switch (code) {
    case 'notFound':
      return t`This contract does not exist or is not yours.`;
    case 'forbidden':
      return message ? t`You may not do this: ${message}` : t`You may not do this with your access rights.`;
    case 'conflict':
      return t`This contract has changed: it was read again, so check its status and what you can do now.`;
    case 'cannotSign':
      return t`You cannot sign this contract: only its named signer may sign for your side.`;
    case 'network':
      return t`No answer came. Check your connection and try again.`;
    default:
      return message ?? t`Something went wrong. Try again later.`;
  }
}

export function identificationText(s: IdentificationStatus): string {
  switch (s) {
    case 'NEW':
      return t`The payer’s signer is not identified yet`;
    case 'PROCESSING':
      return t`The payer’s identification is being checked`;
    case 'FAILED':
      return t`The payer’s identification failed`;
    default:
      return t`The payer’s signer is identified`;
  }
}

/** "payments: n": no plural form to choose (Russian and Ukrainian have three) */
export const paymentsText = (count: number) => t`payments: ${count}`;
