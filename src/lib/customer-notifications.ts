/**
 * Where the session's CustomerNotification push events go (document 3 §4: "Notifications trigger
 * data refreshes and navigation"). The session actor's push handler (features/auth) hands each one
 * here; the notifications feature, mounted with the signed-in layout, listens and shows the toast
 * with its target's button, refreshes the count and the target's data. In lib so neither feature
 * imports the other. Nobody listening (a page outside the main layout): a plain toast with the
 * words the platform sent.
 */
import { NOTIFICATION_TOAST_MS, type PushEvent } from '../../api/push.ts';
import { pushToast } from './notify.ts';

export type CustomerNotificationEvent = Extract<PushEvent, { type: 'CustomerNotification' }>;
type Listener = (event: CustomerNotificationEvent) => void;

const listeners = new Set<Listener>();

export function onCustomerNotification(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function deliverCustomerNotification(event: CustomerNotificationEvent): void {
  if (listeners.size === 0) {
    pushToast({ title: event.title, body: event.body, tone: 'info', timeoutMs: NOTIFICATION_TOAST_MS });
    return;
  }
  for (const listener of listeners) listener(event);
}
