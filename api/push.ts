/**
 * Push events (document 3 §7): GraphQL over WebSocket at /graphql, protocol graphql-ws.
 * The subscription `events` yields `{ type, payload }` where payload is a JSON string parsed
 * with the schema of its type.
 */
import * as v from 'valibot';

export const PUSH_PATH = '/graphql';
export const PUSH_SUBSCRIPTION = 'subscription { events { type payload } }';

export const pushSdl = /* GraphQL */ `
  type PushEvent { type: String!, payload: String! }
  type Query { health: String! }
  type Subscription { events: PushEvent! }
`;

export const PushEventSchema = v.variant('type', [
  v.object({
    type: v.literal('TransactionConfirmation'),
    transactionId: v.number(),
    status: v.picklist(['approved', 'rejected']),
  }),
  v.object({ type: v.literal('TwoStepVerificationModeSet'), mode: v.number(), reqId: v.string() }),
  v.object({ type: v.literal('TwoStepVerificationConfirmed'), mode: v.number() }),
  v.object({ type: v.literal('PasswordChange'), status: v.picklist(['changed', 'canceled']) }),
  v.object({
    type: v.literal('CustomerNotification'),
    notificationType: v.string(),
    status: v.string(),
    title: v.string(),
    body: v.string(),
  }),
]);
export type PushEvent = v.InferOutput<typeof PushEventSchema>;
export type PushEventType = PushEvent['type'];

/** A notification toast stays 10 seconds (document 1 §9). */
export const NOTIFICATION_TOAST_MS = 10_000;
