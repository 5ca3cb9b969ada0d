/**
 * The PasswordChange push event's toast (document 3 §7, §8 "Password change push"). In lib, not in
 * a feature, so that whatever handles push events (the session actor) can show it without a
 * feature importing another.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { PushEvent } from '../../api/push.ts';
import { i18n } from './i18n.ts';
import { pushToast } from './notify.ts';

type PasswordChangeStatus = Extract<PushEvent, { type: 'PasswordChange' }>['status'];

export const passwordChangeToastMessages: Record<PasswordChangeStatus, MessageDescriptor> = {
  changed: msg`Your password has been successfully updated. Other sessions were signed out.`,
  canceled: msg`Confirmation canceled`,
};

export function showPasswordChangeToast(status: PasswordChangeStatus): void {
  pushToast({ title: i18n._(passwordChangeToastMessages[status]), tone: status === 'changed' ? 'success' : 'info' });
}
