/**
 * Push events (document 3 §7): GraphQL over WebSocket at /graphql, protocol graphql-ws.
 * The subscription `events` yields `{ type, payload }` where payload is a JSON string parsed
 * with the schema of its type.
 */
import * as v from 'valibot';
import { ApprovalRequestSchema } from './devices.ts';

export const PUSH_PATH = '/graphql';
export const PUSH_SUBSCRIPTION = 'subscription { events { type payload } }';

export const pushSdl = /* GraphQL */ `
  type PushEvent { type: String!, payload: String! }
  type Query { health: String! }
  type Subscription { events: PushEvent! }
`;

/**
 * One subscription, `events`; what arrives depends on who connected (connectionParams):
 * - `{ token }` with a user access token: the customer's events (the first group below);
 * - `{ token }` with a device token (api/auth.ts AccessClaims.typ 'device'): the device's events
 *   (ApprovalRequested, ApprovalClosed, DeviceUnlinked);
 * - `{ temporaryToken }` of a push or verifyDevice sign-in: LoginApproval for that attempt only.
 */
/**
 * Where a notification leads (document 3 §2: document and username problems to profile, a partial
 * batch to the batch, smart-contract events to the contract; ours: a ticket reply to the ticket,
 * news to /news). Here rather than in api/notifications.ts: the sign-in page loads this file.
 */
export const NotificationTargetSchema = v.variant('kind', [
  v.object({ kind: v.literal('profile') }),
  v.object({ kind: v.literal('batch'), batchId: v.number() }),
  v.object({ kind: v.literal('contract'), contractId: v.number() }),
  v.object({ kind: v.literal('ticket'), ticketNumber: v.string() }),
  v.object({ kind: v.literal('news'), announcementId: v.number() }),
]);
export type NotificationTarget = v.InferOutput<typeof NotificationTargetSchema>;

export const PushEventSchema = v.variant('type', [
  v.object({
    type: v.literal('TransactionConfirmation'),
    transactionId: v.number(),
    status: v.picklist(['approved', 'rejected']),
  }),
  v.object({ type: v.literal('TwoStepVerificationModeSet'), mode: v.number(), reqId: v.string() }),
  /**
   * A pending transfer's approval ended (approved by code or on a phone, declined, too many wrong
   * codes, expired, canceled): its status now. description: 'Transaction was rejected.' when a
   * phone declined it (document 2 §8). The waiting screen reads transferStatus after it.
   */
  v.object({
    type: v.literal('TransferApproval'),
    transactionId: v.number(),
    // api/transfers.ts TransferStatusSchema, spelled out: the sign-in page loads this file, and
    // importing the transfer contract would put every transfer schema into its bundle.
    status: v.picklist(['pending', 'posted', 'rejected', 'expired', 'canceled']),
    description: v.optional(v.string()),
  }),
  v.object({ type: v.literal('TwoStepVerificationConfirmed'), mode: v.number() }),
  /** a card's status moved on its own (the issuer's production stages: api/cards.ts CardStatus 41, 19, 20, 21) */
  v.object({ type: v.literal('CardStatus'), accountId: v.number(), accountStatusId: v.number() }),
  v.object({ type: v.literal('PasswordChange'), status: v.picklist(['changed', 'canceled']) }),
  /** a device finished linking (settings and /scp update at once) */
  v.object({ type: v.literal('DeviceLinked'), deviceId: v.number(), name: v.string() }),
  // Device channel.
  v.object({ type: v.literal('ApprovalRequested'), request: ApprovalRequestSchema }),
  /** answered (on this or another device), declined or expired: the companion drops it */
  v.object({ type: v.literal('ApprovalClosed'), key: v.string(), status: v.picklist(['approved', 'declined', 'expired']) }),
  v.object({ type: v.literal('DeviceUnlinked'), deviceId: v.number() }),
  // Sign-in attempt channel (temporary token).
  v.object({ type: v.literal('LoginApproval'), status: v.picklist(['approved', 'declined', 'expired']) }),
  v.object({
    type: v.literal('CustomerNotification'),
    notificationType: v.string(),
    status: v.string(),
    title: v.string(),
    body: v.string(),
    /** the notification centre's entry (api/notifications.ts); absent for notices not kept there */
    id: v.optional(v.number()),
    /** where the toast's button leads (document 3 §2) */
    target: v.optional(v.nullable(NotificationTargetSchema)),
    /** the values the app's words for notificationType use (the app says it in the reader's language) */
    params: v.optional(v.record(v.string(), v.nullable(v.union([v.string(), v.number()])))),
  }),
]);
export type PushEvent = v.InferOutput<typeof PushEventSchema>;
export type PushEventType = PushEvent['type'];

/** A notification toast stays 10 seconds (document 1 §9). */
export const NOTIFICATION_TOAST_MS = 10_000;
