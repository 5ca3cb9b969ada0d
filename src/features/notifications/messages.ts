/**
 * A notification said in the reader's language, from its type and params (api/notifications.ts
 * NOTIFICATION_TYPES; the platform's words, server/modules/notifications/notification-texts.ts,
 * say the same in the customer's language when it was sent). A type the app does not know, or
 * one missing a parameter its words need, keeps the words the platform sent.
 */
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import type { NotificationTarget } from '../../../api/push.ts';

export interface NotificationLike {
  type: string;
  title: string;
  body: string;
  params?: Record<string, string | number | null> | undefined;
  target?: NotificationTarget | null | undefined;
}

export interface NotificationText {
  title: string;
  body: string;
}

function valuesOf(n: NotificationLike): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(n.params ?? {})) if (v !== null && v !== undefined) out[k] = String(v);
  const t = n.target;
  if (t?.kind === 'contract') out.contractId ??= String(t.contractId);
  if (t?.kind === 'ticket') out.ticketNumber ??= t.ticketNumber;
  if (t?.kind === 'batch') out.batchId ??= String(t.batchId);
  return out;
}

export function notificationText(i18n: I18n, n: NotificationLike): NotificationText {
  const p = valuesOf(n);
  const { contractId, counterparty, ticketNumber, batchId, failed, total } = p;
  const sent = { title: n.title, body: n.body };
  const say = (title: string, body: string | null) => (body === null ? sent : { title, body });
  switch (n.type) {
    case 'contractCreated':
      return say(i18n._(msg`New revenue-split contract`), contractId ? i18n._(msg`Contract ${contractId} was created and waits for signatures.`) : null);
    case 'contractSigned':
      return say(
        i18n._(msg`Contract signed`),
        contractId ? (counterparty ? i18n._(msg`Contract ${contractId} was signed by ${counterparty}.`) : i18n._(msg`Contract ${contractId} was signed.`)) : null,
      );
    case 'contractActive':
      return say(i18n._(msg`Contract active`), contractId ? i18n._(msg`Contract ${contractId} is active: incoming payments it covers are now split.`) : null);
    case 'contractRejected':
      return say(i18n._(msg`Contract rejected`), contractId ? i18n._(msg`Contract ${contractId} was rejected.`) : null);
    case 'contractCancelled':
      return say(i18n._(msg`Contract cancelled`), contractId ? i18n._(msg`Contract ${contractId} was cancelled.`) : null);
    case 'contractTerminating':
      return say(i18n._(msg`Contract ending`), contractId ? i18n._(msg`Termination of contract ${contractId} was asked for.`) : null);
    case 'contractTerminated':
      return say(i18n._(msg`Contract ended`), contractId ? i18n._(msg`Contract ${contractId} has ended: payments are no longer split.`) : null);
    case 'contractExpired':
      return say(i18n._(msg`Contract expired`), contractId ? i18n._(msg`Contract ${contractId} expired before it was signed by both sides.`) : null);
    case 'ticketReply':
      return say(i18n._(msg`Support replied`), ticketNumber ? i18n._(msg`There is a new reply in your support ticket ${ticketNumber}.`) : null);
    case 'ticketClosed':
      return say(i18n._(msg`Support ticket closed`), ticketNumber ? i18n._(msg`Your support ticket ${ticketNumber} was closed.`) : null);
    case 'batchPartial':
      return say(i18n._(msg`Batch partly paid`), batchId && failed && total ? i18n._(msg`${failed} of ${total} payments in batch ${batchId} failed.`) : null);
    case 'documentRejected':
      return say(i18n._(msg`Document rejected`), i18n._(msg`A document you provided was rejected. Open your profile to see why and provide a new one.`));
    case 'usernameChangeFailed':
      return say(i18n._(msg`Username not changed`), i18n._(msg`Your username change could not be completed. Open your profile to try again.`));
    default:
      return sent;
  }
}
