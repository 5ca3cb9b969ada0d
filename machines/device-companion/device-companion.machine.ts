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
    'NOTICE.DISMISS': { actions: 'clearNotice' },
  },
  states: {
    start: {
      always: [{ guard: 'hasStoredLink', target: 'signingIn' }, { target: 'unlinked' }],
    },
    unlinked: {
      tags: ['unlinked'],
      on: {
        'TYPE.CHOOSE': { actions: { type: 'chooseType', params: ({ event }) => event.deviceType } },
        'LINK.SUBMIT': [
          {
            guard: { type: 'isLinkCode', params: ({ event }) => event.linkCode },
            target: 'linking',
            actions: [{ type: 'rememberLinkCode', params: ({ event }) => event.linkCode }, 'clearError', 'clearNotice'],
          },
          {
            actions: [{ type: 'rememberLinkCode', params: ({ event }) => event.linkCode }, { type: 'setError', params: 'invalidCode' }],
          },
        ],
      },
    },
    linking: {
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
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'signingIn',
            actions: [
              { type: 'storeLink', params: ({ event }) => (event.output as Extract<ApproveResult, { ok: true }>).link },
              { type: 'persistLink', params: ({ event }) => (event.output as Extract<ApproveResult, { ok: true }>).link },
            ],
          },
          { target: 'unlinked', actions: { type: 'setError', params: ({ event }) => failureCode(event.output) } },
        ],
        onError: { target: 'unlinked', actions: { type: 'setError', params: 'unknown' } },
      },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => ({ secret: context.link?.secret ?? '' }),
        onDone: [
          {
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'loading',
            actions: { type: 'storeToken', params: ({ event }) => (event.output as Extract<SignInResult, { ok: true }>).token },
          },
          // Document: "DeviceUnlinked or a 403 on sign-in -> forget the link".
          {
            guard: { type: 'isRevoked', params: ({ event }) => event.output },
            target: 'unlinked',
            actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'linkRevoked' }],
          },
          { target: 'offline', actions: { type: 'setError', params: ({ event }) => failureCode(event.output) } },
        ],
        onError: { target: 'offline', actions: { type: 'setError', params: 'unknown' } },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadDevice',
        src: 'loadDevice',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: [
          {
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'ready',
            actions: [{ type: 'storeDevice', params: ({ event }) => event.output as Extract<LoadResult, { ok: true }> }, 'clearError'],
          },
          {
            guard: { type: 'isRevoked', params: ({ event }) => event.output },
            target: 'unlinked',
            actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'linkRevoked' }],
          },
          { target: 'offline', actions: { type: 'setError', params: ({ event }) => failureCode(event.output) } },
        ],
        onError: { target: 'offline', actions: { type: 'setError', params: 'unknown' } },
      },
    },
    offline: {
      on: { RETRY: { target: 'signingIn', actions: 'clearError' } },
    },
    ready: {
      invoke: [
        { id: 'listen', src: 'listen', input: ({ context }) => ({ token: context.token ?? '' }) },
        { id: 'renewTimer', src: 'renewTimer', input: ({ context }) => ({ token: context.token ?? '' }) },
      ],
      on: {
        'APPROVAL.REQUESTED': { actions: { type: 'addRequest', params: ({ event }) => event.request } },
        'APPROVAL.CLOSED': { actions: { type: 'removeRequest', params: ({ event }) => event.key } },
        'REQUEST.FOCUS': { actions: { type: 'focusRequest', params: ({ event }) => event.key } },
        'DEVICE.UNLINKED': { target: 'unlinked', actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'unlinkedElsewhere' }] },
        // A new token means a new socket: signing in again re-enters `ready` and re-opens it.
        'TOKEN.EXPIRING': { target: 'signingIn' },
        'CHANNEL.LOST': { target: 'signingIn' },
      },
      initial: 'idle',
      states: {
        idle: {
          // An answer cut short (TOKEN.EXPIRING, CHANNEL.LOST) must not leave a button busy.
          entry: 'endAnswer',
          on: {
            'REQUEST.ANSWER': {
              guard: { type: 'isPendingRequest', params: ({ event }) => event.key },
              target: 'answering',
              actions: [{ type: 'startAnswer', params: ({ event }) => ({ key: event.key, result: event.result }) }, 'clearError', 'clearNotice'],
            },
            'UNLINK.START': { target: 'confirmingUnlink', actions: ['clearError', 'clearNotice'] },
          },
        },
        answering: {
          tags: ['busy'],
          invoke: {
            id: 'confirmRequest',
            src: 'confirmRequest',
            input: ({ context }) => ({ token: context.token ?? '', key: context.answering?.key ?? '', result: context.answering?.result ?? false }),
            onDone: [
              {
                guard: { type: 'wasRecorded', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'setNotice', params: ({ context }) => (context.answering?.result ? 'approved' : 'declined') },
                  { type: 'removeRequest', params: ({ context }) => context.answering?.key ?? '' },
                  'endAnswer',
                ],
              },
              {
                guard: { type: 'succeeded', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'setNotice', params: 'alreadyAnswered' },
                  { type: 'removeRequest', params: ({ context }) => context.answering?.key ?? '' },
                  'endAnswer',
                ],
              },
              { target: 'idle', actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }, 'endAnswer'] },
            ],
            onError: { target: 'idle', actions: [{ type: 'setError', params: 'unknown' }, 'endAnswer'] },
          },
        },
        confirmingUnlink: {
          on: {
            'UNLINK.CANCEL': { target: 'idle' },
            'UNLINK.CONFIRM': { target: 'unlinking' },
          },
        },
        unlinking: {
          tags: ['busy'],
          invoke: {
            id: 'unlinkDevice',
            src: 'unlinkDevice',
            input: ({ context }) => ({ token: context.token ?? '', deviceId: context.link?.deviceId ?? 0 }),
            onDone: [
              // Already gone on the platform (revoked) is what the user wanted too.
              {
                guard: { type: 'isDoneOrRevoked', params: ({ event }) => event.output },
                target: '#deviceCompanion.unlinked',
                actions: ['forgetLink', 'dropLink', { type: 'setNotice', params: 'unlinkedHere' }],
              },
              { target: 'idle', actions: { type: 'setError', params: ({ event }) => failureCode(event.output) } },
            ],
            onError: { target: 'idle', actions: { type: 'setError', params: 'unknown' } },
          },
        },
      },
    },
  },
});

export type DeviceCompanionMachine = typeof deviceCompanionMachine;
