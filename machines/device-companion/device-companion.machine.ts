/**
 * The device companion (api/devices.ts; document 1 §3 "push": approval on a linked device over a
 * live channel). It runs on the customer's phone at DEVICE_COMPANION_PATH.
 *
 * ```
 * start ─ a #link= in the URL, or no stored link ─▶ unlinked ─LINK.SUBMIT (valid code)─▶ linking ─ok─▶ signingIn
 *   └─ a stored link ────────────────────────────────────────────────────────────────────────────▶ signingIn
 * signingIn (POST /auth/token { secret }) ─ok─▶ loading (GET /device-api/device: pending requests) ─ok─▶ ready
 *   └─ revoked (403/404): the link is forgotten ─▶ unlinked · network ─▶ offline ─RETRY─▶ signingIn
 * ready (listens on graphql-ws; a timer says TOKEN.EXPIRING before the 300 s token ends ─▶ signingIn)
 *   idle ─REQUEST.ANSWER─▶ answering (PUT /auth/login/{key}/confirm) ─▶ idle
 *   idle ─UNLINK.START─▶ confirmingUnlink ─UNLINK.CONFIRM─▶ unlinking (DELETE /device-api/device/{id}) ─ok─▶ unlinked
 *   APPROVAL.REQUESTED adds a request, APPROVAL.CLOSED drops one answered elsewhere,
 *   DEVICE.UNLINKED (unlinked from the settings screen) forgets the link ─▶ unlinked,
 *   CHANNEL.LOST (the socket gave up) ─▶ signingIn (which finds out whether the device still exists)
 * ```
 *
 * Pure: the secret is stored and forgotten through the actions `persistLink` / `forgetLink`, which
 * the companion provides (localStorage under DEVICE_LINK_STORAGE_KEY). Errors and notices are codes;
 * the view translates them. Approval requests are capped (MAX_REQUESTS): a flood cannot grow memory.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { ApprovalRequest, Device } from '../../api/devices.ts';
import type { DEVICE_TYPES } from '../../api/auth.ts';
import { parseLinkCode } from './link-code.ts';

export type DeviceType = (typeof DEVICE_TYPES)[number];

export interface StoredLink {
  deviceId: number;
  secret: string;
}

export type CompanionErrorCode =
  | 'invalidCode'
  | 'codeRejected'
  | 'network'
  | 'notAllowed'
  /** unlinking refused: the last phone approving the sign-ins of a user who signs in by push */
  | 'onlySignInPhone'
  | 'unknown';
export type CompanionNotice = 'unlinkedHere' | 'unlinkedElsewhere' | 'linkRevoked' | 'alreadyAnswered' | 'approved' | 'declined';

/** Failures every actor may answer; `revoked`: the platform no longer knows this device (403/404). */
export type ActorFailure = { ok: false; code: 'network' | 'revoked' | 'unknown' | 'codeRejected' | 'notAllowed' | 'onlySignInPhone' };
export type ApproveResult = { ok: true; link: StoredLink } | ActorFailure;
export type SignInResult = { ok: true; token: string } | ActorFailure;
export type LoadResult = { ok: true; login: string; device: Device; pending: ApprovalRequest[] } | ActorFailure;
/** recorded false: the request was already answered or has expired */
export type ConfirmResult = { ok: true; recorded: boolean } | ActorFailure;
export type UnlinkResult = { ok: true } | ActorFailure;

export interface ApproveInput {
  deviceId: number;
  code: string;
  type: DeviceType;
  name: string;
}

export const MAX_REQUESTS = 20;
export const MAX_DEVICE_NAME_LENGTH = 60;

export interface CompanionInput {
  storedLink: StoredLink | null;
  /** a `#link=<id>.<code>` from the QR code or deeplink, pre-filled as the typed code */
  hashLink: { deviceId: number; code: string } | null;
  /** a `#approve=<key>` from the sign-in page's QR code: that request is shown first */
  approveKey: string | null;
  /** from the user agent; the user may change it */
  detectedType: DeviceType;
}

export interface CompanionContext {
  link: StoredLink | null;
  /** the typed (or scanned) link code, to refill the form */
  linkCodeText: string;
  deviceType: DeviceType;
  token: string | null;
  login: string | null;
  device: Device | null;
  requests: ApprovalRequest[];
  focusKey: string | null;
  /** the request being answered and how */
  answering: { key: string; result: boolean } | null;
  error: CompanionErrorCode | null;
  notice: CompanionNotice | null;
}

export type CompanionEvent =
  | { type: 'TYPE.CHOOSE'; deviceType: DeviceType }
  | { type: 'LINK.SUBMIT'; linkCode: string; name: string }
  | { type: 'RETRY' }
  | { type: 'REQUEST.ANSWER'; key: string; result: boolean }
  | { type: 'REQUEST.FOCUS'; key: string }
  | { type: 'UNLINK.START' }
  | { type: 'UNLINK.CANCEL' }
  | { type: 'UNLINK.CONFIRM' }
  | { type: 'NOTICE.DISMISS' }
  /** from the live channel */
  | { type: 'APPROVAL.REQUESTED'; request: ApprovalRequest }
  | { type: 'APPROVAL.CLOSED'; key: string }
  | { type: 'DEVICE.UNLINKED' }
  | { type: 'CHANNEL.LOST' }
  /** from the renewal timer: the device token ends soon */
  | { type: 'TOKEN.EXPIRING' };

const failureCode = (r: { ok: boolean; code?: string }): CompanionErrorCode => {
  if (r.ok) return 'unknown';
  switch (r.code) {
    case 'network':
    case 'codeRejected':
    case 'notAllowed':
    case 'onlySignInPhone':
      return r.code;
    default:
      return 'unknown';
  }
};

function withRequest(list: ApprovalRequest[], request: ApprovalRequest): ApprovalRequest[] {
  const others = list.filter((r) => r.key !== request.key);
  // Newest last; the oldest are dropped beyond the cap (they expire within minutes anyway).
  return [...others, request].slice(-MAX_REQUESTS);
}

export const deviceCompanionMachine = setup({
  types: {
    context: {} as CompanionContext,
    events: {} as CompanionEvent,
    input: {} as CompanionInput,
  },
  actors: {
    approveDevice: fromPromise<ApproveResult, ApproveInput>(async () => ({ ok: false, code: 'unknown' })),
    signIn: fromPromise<SignInResult, { secret: string }>(async () => ({ ok: false, code: 'unknown' })),
    loadDevice: fromPromise<LoadResult, { token: string }>(async () => ({ ok: false, code: 'unknown' })),
    confirmRequest: fromPromise<ConfirmResult, { token: string; key: string; result: boolean }>(async () => ({ ok: false, code: 'unknown' })),
    unlinkDevice: fromPromise<UnlinkResult, { token: string; deviceId: number }>(async () => ({ ok: false, code: 'unknown' })),
    /** graphql-ws with connectionParams { token }: sends APPROVAL.*, DEVICE.UNLINKED, CHANNEL.LOST */
    listen: fromCallback<CompanionEvent, { token: string }>(() => () => undefined),
    /** sends TOKEN.EXPIRING shortly before the device token ends */
    renewTimer: fromCallback<CompanionEvent, { token: string }>(() => () => undefined),
  },
  actions: {
    /** the companion stores `{ deviceId, secret }` (localStorage, DEVICE_LINK_STORAGE_KEY) */
    persistLink: (_, _link: StoredLink) => undefined,
    forgetLink: () => undefined,
    clearError: assign({ error: null }),
    clearNotice: assign({ notice: null }),
    setError: assign((_, code: CompanionErrorCode) => ({ error: code })),
    setNotice: assign((_, notice: CompanionNotice) => ({ notice })),
    chooseType: assign((_, deviceType: DeviceType) => ({ deviceType })),
    rememberLinkCode: assign((_, text: string) => ({ linkCodeText: text.slice(0, 64) })),
    storeLink: assign((_, link: StoredLink) => ({ link })),
    dropLink: assign({ link: null, token: null, device: null, login: null, requests: [], answering: null }),
    storeToken: assign((_, token: string) => ({ token })),
    storeDevice: assign((_, p: { login: string; device: Device; pending: ApprovalRequest[] }) => ({
      login: p.login,
      device: p.device,
      requests: p.pending.slice(-MAX_REQUESTS),
    })),
    addRequest: assign(({ context }, request: ApprovalRequest) => ({ requests: withRequest(context.requests, request) })),
    removeRequest: assign(({ context }, key: string) => ({
      requests: context.requests.filter((r) => r.key !== key),
      focusKey: context.focusKey === key ? null : context.focusKey,
    })),
    focusRequest: assign((_, key: string) => ({ focusKey: key })),
    startAnswer: assign((_, p: { key: string; result: boolean }) => ({ answering: p })),
    endAnswer: assign({ answering: null }),
  },
  guards: {
    hasStoredLink: ({ context }) => context.link !== null,
    isLinkCode: (_, text: string) => parseLinkCode(text) !== null,
    succeeded: (_, r: { ok: boolean }) => r.ok,
    isRevoked: (_, r: { ok: boolean; code?: string }) => !r.ok && r.code === 'revoked',
    isDoneOrRevoked: (_, r: { ok: boolean; code?: string }) => r.ok || r.code === 'revoked',
    wasRecorded: (_, r: ConfirmResult) => r.ok && r.recorded,
    isPendingRequest: ({ context }, key: string) => context.requests.some((r) => r.key === key),
  },
}).createMachine({
  id: 'deviceCompanion',
  description: "The device companion on the customer's phone: linking the phone, then approving or declining sign-ins over a live channel.",
  meta: { spec: ['document 1 §3', 'document 1 §5', 'document 1 §7'] },
  context: ({ input }) => ({
    // A #link= in the URL means "link this phone now": it wins over an earlier link.
    link: input.hashLink ? null : input.storedLink,
    linkCodeText: input.hashLink ? `${input.hashLink.deviceId}-${input.hashLink.code}` : '',
    deviceType: input.detectedType,
    token: null,
    login: null,
    device: null,
    requests: [],
    focusKey: input.approveKey,
    answering: null,
    error: null,
    notice: null,
  }),
  initial: 'start',
  on: {
    'NOTICE.DISMISS': { description: 'The user dismisses the notice on screen.', actions: 'clearNotice' },
  },
  states: {
    start: {
      description: 'The companion has just opened on the phone.',
      always: [
        { guard: 'hasStoredLink', target: 'signingIn', description: 'The phone is already linked (and no new link code came in the address): it signs in.' },
        { target: 'unlinked', description: 'The phone is not linked, or a new link code came in the address: the user links it.' },
      ],
    },
    unlinked: {
      description: 'The phone is not linked to any account; the user enters a link code, a name and the phone type.',
      tags: ['unlinked'],
      on: {
        'TYPE.CHOOSE': {
          description: 'The user chooses the phone type (android or ios).',
          actions: { type: 'chooseType', params: ({ event }) => event.deviceType },
        },
        'LINK.SUBMIT': [
          {
            description: 'The link code has the right form: the phone is linked with it.',
            guard: { type: 'isLinkCode', params: ({ event }) => event.linkCode },
            target: 'linking',
            actions: [{ type: 'rememberLinkCode', params: ({ event }) => event.linkCode }, 'clearError', 'clearNotice'],
          },
          {
            description: 'The link code has the wrong form: the user is told and nothing is sent.',
            actions: [{ type: 'rememberLinkCode', params: ({ event }) => event.linkCode }, { type: 'setError', params: 'invalidCode' }],
          },
        ],
      },
    },
    linking: {
      description: 'The phone is being linked to the account with the link code.',
      tags: ['unlinked', 'busy'],
      invoke: {
        id: 'approveDevice',
        src: 'approveDevice',
        input: ({ context, event }) => {
          const parsed = parseLinkCode(context.linkCodeText);
          const name = event.type === 'LINK.SUBMIT' ? event.name.trim().slice(0, MAX_DEVICE_NAME_LENGTH) : '';
          return { deviceId: parsed?.deviceId ?? 0, code: parsed?.code ?? '', type: context.deviceType, name };
        },
        onDone: [
          {
            description: 'The phone was linked: its secret is stored on the phone and it signs in.',
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'signingIn',
            actions: [
              { type: 'storeLink', params: ({ event }) => (event.output as Extract<ApproveResult, { ok: true }>).link },
              { type: 'persistLink', params: ({ event }) => (event.output as Extract<ApproveResult, { ok: true }>).link },
            ],
          },
          {
            description: 'Linking was refused (wrong or expired code, network): the user sees why and may try again.',
            target: 'unlinked',
            actions: { type: 'setError', params: ({ event }) => failureCode(event.output) },
          },
        ],
        onError: {
          description: 'Linking failed unexpectedly: the user may try again.',
          target: 'unlinked',
          actions: { type: 'setError', params: 'unknown' },
        },
      },
    },
    signingIn: {
      description: "The phone signs in with its stored secret to get a short-lived token.",
      tags: ['busy'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => ({ secret: context.link?.secret ?? '' }),
        onDone: [
          {
            description: 'The phone is signed in: its pending approval requests are loaded.',
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'loading',
            actions: { type: 'storeToken', params: ({ event }) => (event.output as Extract<SignInResult, { ok: true }>).token },
          },
          // Document: "DeviceUnlinked or a 403 on sign-in -> forget the link".
          {
            description: 'The platform no longer knows this phone (403/404): the link is forgotten and the user is told.',
            guard: { type: 'isRevoked', params: ({ event }) => event.output },
            target: 'unlinked',
            actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'linkRevoked' }],
          },
          {
            description: 'Signing in failed (network or other error): the phone shows it is offline.',
            target: 'offline',
            actions: { type: 'setError', params: ({ event }) => failureCode(event.output) },
          },
        ],
        onError: {
          description: 'Signing in failed unexpectedly: the phone shows it is offline.',
          target: 'offline',
          actions: { type: 'setError', params: 'unknown' },
        },
      },
    },
    loading: {
      description: "The phone's details and pending approval requests are being loaded.",
      tags: ['busy'],
      invoke: {
        id: 'loadDevice',
        src: 'loadDevice',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: [
          {
            description: 'The details and pending requests were loaded: the phone is ready to approve.',
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'ready',
            actions: [{ type: 'storeDevice', params: ({ event }) => event.output as Extract<LoadResult, { ok: true }> }, 'clearError'],
          },
          {
            description: 'The platform no longer knows this phone (403/404): the link is forgotten and the user is told.',
            guard: { type: 'isRevoked', params: ({ event }) => event.output },
            target: 'unlinked',
            actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'linkRevoked' }],
          },
          {
            description: 'Loading failed (network or other error): the phone shows it is offline.',
            target: 'offline',
            actions: { type: 'setError', params: ({ event }) => failureCode(event.output) },
          },
        ],
        onError: {
          description: 'Loading failed unexpectedly: the phone shows it is offline.',
          target: 'offline',
          actions: { type: 'setError', params: 'unknown' },
        },
      },
    },
    offline: {
      description: 'The phone could not reach the platform; the user may retry.',
      on: { RETRY: { target: 'signingIn', description: 'The user retries: the phone signs in again.', actions: 'clearError' } },
    },
    ready: {
      description: 'The phone is linked and signed in, listening for sign-in approval requests.',
      invoke: [
        { id: 'listen', src: 'listen', input: ({ context }) => ({ token: context.token ?? '' }) },
        { id: 'renewTimer', src: 'renewTimer', input: ({ context }) => ({ token: context.token ?? '' }) },
      ],
      on: {
        'APPROVAL.REQUESTED': {
          description: 'A new sign-in approval request arrives and is listed (up to a fixed number).',
          actions: { type: 'addRequest', params: ({ event }) => event.request },
        },
        'APPROVAL.CLOSED': {
          description: 'A request was answered elsewhere or expired: it is removed from the list.',
          actions: { type: 'removeRequest', params: ({ event }) => event.key },
        },
        'REQUEST.FOCUS': {
          description: 'The user opens one request (for example from a notification).',
          actions: { type: 'focusRequest', params: ({ event }) => event.key },
        },
        'DEVICE.UNLINKED': {
          target: 'unlinked',
          description: 'The phone was unlinked from the settings screen: the link is forgotten and the user is told.',
          actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'unlinkedElsewhere' }],
        },
        // A new token means a new socket: signing in again re-enters `ready` and re-opens it.
        'TOKEN.EXPIRING': { target: 'signingIn', description: "The phone's token is about to expire: it signs in again for a new one." },
        'CHANNEL.LOST': { target: 'signingIn', description: 'The live channel gave up: the phone signs in again to find out whether it is still linked.' },
      },
      initial: 'idle',
      states: {
        idle: {
          description: 'The pending requests are shown; the user may approve or decline one, or unlink the phone.',
          // An answer cut short (TOKEN.EXPIRING, CHANNEL.LOST) must not leave a button busy.
          entry: 'endAnswer',
          on: {
            'REQUEST.ANSWER': {
              description: 'The user approves or declines a pending request.',
              guard: { type: 'isPendingRequest', params: ({ event }) => event.key },
              target: 'answering',
              actions: [{ type: 'startAnswer', params: ({ event }) => ({ key: event.key, result: event.result }) }, 'clearError', 'clearNotice'],
            },
            'UNLINK.START': { target: 'confirmingUnlink', description: 'The user asks to unlink this phone.', actions: ['clearError', 'clearNotice'] },
          },
        },
        answering: {
          description: "The user's answer to the request is being sent.",
          tags: ['busy'],
          invoke: {
            id: 'confirmRequest',
            src: 'confirmRequest',
            input: ({ context }) => ({ token: context.token ?? '', key: context.answering?.key ?? '', result: context.answering?.result ?? false }),
            onDone: [
              {
                description: 'The answer was recorded: the request leaves the list and the user sees approved or declined.',
                guard: { type: 'wasRecorded', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'setNotice', params: ({ context }) => (context.answering?.result ? 'approved' : 'declined') },
                  { type: 'removeRequest', params: ({ context }) => context.answering?.key ?? '' },
                  'endAnswer',
                ],
              },
              {
                description: 'The request had already been answered: it leaves the list and the user is told.',
                guard: { type: 'succeeded', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'setNotice', params: 'alreadyAnswered' },
                  { type: 'removeRequest', params: ({ context }) => context.answering?.key ?? '' },
                  'endAnswer',
                ],
              },
              {
                description: 'Sending the answer failed: the request stays and the user sees the error.',
                target: 'idle',
                actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }, 'endAnswer'],
              },
            ],
            onError: {
              description: 'Sending the answer failed unexpectedly: the request stays and the user sees the error.',
              target: 'idle',
              actions: [{ type: 'setError', params: 'unknown' }, 'endAnswer'],
            },
          },
        },
        confirmingUnlink: {
          description: 'The user is asked to confirm unlinking this phone.',
          on: {
            'UNLINK.CANCEL': { target: 'idle', description: 'The user keeps the phone linked.' },
            'UNLINK.CONFIRM': { target: 'unlinking', description: 'The user confirms unlinking the phone.' },
          },
        },
        unlinking: {
          description: 'The phone is being removed from the account.',
          tags: ['busy'],
          invoke: {
            id: 'unlinkDevice',
            src: 'unlinkDevice',
            input: ({ context }) => ({ token: context.token ?? '', deviceId: context.link?.deviceId ?? 0 }),
            onDone: [
              // Already gone on the platform (revoked) is what the user wanted too.
              {
                description: 'The phone was unlinked (or was already gone): the link is forgotten on the phone.',
                guard: { type: 'isDoneOrRevoked', params: ({ event }) => event.output },
                target: '#deviceCompanion.unlinked',
                actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'unlinkedHere' }],
              },
              {
                description: 'Unlinking was refused (for example the only phone for push sign-in) or failed: the user sees why.',
                target: 'idle',
                actions: { type: 'setError', params: ({ event }) => failureCode(event.output) },
              },
            ],
            onError: {
              description: 'Unlinking failed unexpectedly: the phone stays linked and the user sees the error.',
              target: 'idle',
              actions: { type: 'setError', params: 'unknown' },
            },
          },
        },
      },
    },
  },
});

export type DeviceCompanionMachine = typeof deviceCompanionMachine;
