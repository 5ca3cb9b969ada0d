/** The words for the device companion's codes (Lingui message descriptors; the view translates). */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { CompanionErrorCode, CompanionNotice } from '../../machines/device-companion/device-companion.machine.ts';

export const companionErrorMessages: Record<CompanionErrorCode, MessageDescriptor> = {
  invalidCode: msg`Enter the link code as shown in your online banking, for example 42-KX7P9QMA.`,
  codeRejected: msg`This link code is wrong or has expired. Start linking again in your online banking.`,
  network: msg`Network error. Check your connection and try again.`,
  notAllowed: msg`This phone may not approve this kind of request. Change it in the settings of your online banking.`,
  onlySignInPhone: msg`This is the only phone that approves your sign-ins, so it stays linked. In your online banking, choose another two-step verification method first.`,
  unknown: msg`Something went wrong. Please try again.`,
};

export const companionNoticeMessages: Record<CompanionNotice, MessageDescriptor> = {
  unlinkedHere: msg`This phone is unlinked.`,
  unlinkedElsewhere: msg`This phone was unlinked in your online banking.`,
  linkRevoked: msg`This phone is no longer linked. Link it again to approve requests.`,
  alreadyAnswered: msg`This request was already answered or has expired.`,
  approved: msg`Approved.`,
  declined: msg`Declined.`,
};
