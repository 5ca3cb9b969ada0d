/**
 * Toasts for the two-step verification push events (api/push.ts TwoStepVerificationModeSet and
 * TwoStepVerificationConfirmed): every open session of the customer learns that the second step
 * is being changed or was changed (a change the user did not start is a warning sign). In lib, not
 * in a feature, so the session actor's push handler can show them without a feature importing
 * another.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { PushEvent } from '../../api/push.ts';
import { i18n } from './i18n.ts';
import { pushToast } from './notify.ts';

const modeNames: Record<number, MessageDescriptor> = {
  1: msg`Approval on a linked phone`,
  2: msg`Code by SMS`,
  3: msg`Authenticator app`,
  4: msg`Approval code`,
};

type TwoStepPush = Extract<PushEvent, { type: 'TwoStepVerificationModeSet' | 'TwoStepVerificationConfirmed' }>;

export function isTwoStepPush(event: PushEvent): event is TwoStepPush {
  return event.type === 'TwoStepVerificationModeSet' || event.type === 'TwoStepVerificationConfirmed';
}

export function showTwoStepToast(event: TwoStepPush): void {
  const descriptor = modeNames[event.mode];
  const confirmedName = descriptor ? i18n._(descriptor) : String(event.mode);
  if (event.type === 'TwoStepVerificationConfirmed') {
    pushToast({ title: i18n._(msg`Two-step verification is now: ${confirmedName}.`), tone: 'success' });
  } else {
    pushToast({ title: i18n._(msg`A change of two-step verification was started.`), body: confirmedName, tone: 'info' });
  }
}
