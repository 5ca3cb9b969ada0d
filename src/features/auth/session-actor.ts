/**
 * The session actor: the root of the signed-in app. It lives in router context; route guards and
 * the request wrapper reach the session only through the functions here.
 */
import { waitFor, type ActorRefFrom, type InspectionEvent } from 'xstate';
import { useSelector } from '@xstate/react';
import * as v from 'valibot';
import { TokensSchema } from '../../../api/auth.ts';
import { CustomerSchema, userAccessInfoGet } from '../../../api/customer.ts';
import {
  sessionMachine,
  type PersistedSession,
  type SessionMachine,
} from '../../../machines/session/session.machine.ts';
import {
  selectAccessToken,
  selectActingCustomerId,
  selectCustomer,
  selectIsSignedIn,
  selectNeedsKyc,
  type SessionSnapshot,
} from '../../../machines/session/session.select.ts';
import { startActor } from '../../lib/actors.ts';
import { getAuthUrl } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { writeEarlyReadPlan } from '../../lib/early-read-plan.ts';
import { configureTokenClient } from '../../lib/token-client.ts';
import {
  createPushConnectionActor,
  refreshTokensActor,
  revokeSessionActor,
  showNotificationToast,
} from './actors.ts';
import { signalEmbeddingApp } from '../../lib/embedding.ts';

export type SessionActor = ActorRefFrom<SessionMachine>;

/** sessionStorage key of the persisted session (restored on reload, gone with the tab). */
export const SESSION_STORAGE_KEY = 'wlb.session';
/** User input restarts the idle timer at most this often. */
const ACTIVITY_THROTTLE_MS = 1_000;

const AccessInfoSchema = userAccessInfoGet.response.entries.accessInfo;
const PersistedSchema = v.object({
  tokens: v.nullable(TokensSchema),
  customer: v.nullable(CustomerSchema),
  accessInfo: v.nullable(AccessInfoSchema),
  actingCustomerId: v.nullable(v.number()),
  rememberedPath: v.nullable(v.string()),
});

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function readPersistedSession(): PersistedSession | null {
  const raw = storage()?.getItem(SESSION_STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = v.safeParse(PersistedSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

function persistedOf(s: SessionSnapshot): PersistedSession | null {
  const { tokens, customer, accessInfo, actingCustomerId, rememberedPath } = s.context;
  if (!tokens && rememberedPath === null) return null;
  return { tokens, customer, accessInfo, actingCustomerId, rememberedPath };
}

function actingIdFromQuery(): number | null {
  if (typeof location === 'undefined') return null;
  const raw = new URLSearchParams(location.search).get('fromCustomerId');
  if (raw === null || !/^\d{1,12}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

export interface CreateSessionActorOptions {
  /** an inspector for this actor (tests); otherwise the shared one, if any (src/lib/actors.ts) */
  inspect?: (e: InspectionEvent) => void;
  /** Clears query caches and stores on logout and expiry (the app passes queryClient.clear). */
  clearCaches?: () => void;
}

/** Creates, starts and returns the session actor, restored from sessionStorage. */
export function createSessionActor(opts: CreateSessionActorOptions = {}): SessionActor {
  configureTokenClient({ authUrl: getAuthUrl, language: getUiLanguageTag });
  // The push actor needs the current token at each (re)connect; the actor is assigned below.
  let actor: SessionActor | null = null;
  const getToken = () => (actor ? selectAccessToken(actor.getSnapshot()) : null);
  const machine = sessionMachine.provide({
    actors: {
      refreshTokens: refreshTokensActor,
      revokeSession: revokeSessionActor,
      pushConnection: createPushConnectionActor(getToken),
    },
    actions: {
      clearStorage: () => storage()?.clear(),
      clearCaches: () => opts.clearCaches?.(),
      showNotification: (_, notification) => showNotificationToast(notification),
      announceExpired: () => signalEmbeddingApp('sessionExpired'),
    },
  });
  actor = startActor(machine, { input: { restored: readPersistedSession() }, inspect: opts.inspect });

  let last = '';
  actor.subscribe((s) => {
    const persisted = persistedOf(s);
    const json = persisted ? JSON.stringify(persisted) : '';
    if (json === last) return;
    last = json;
    const store = storage();
    if (persisted) store?.setItem(SESSION_STORAGE_KEY, json);
    else store?.removeItem(SESSION_STORAGE_KEY);
    // what the next load of /home needs to ask for its data before the app has arrived
    if (persisted?.tokens && store) writeEarlyReadPlan(store, SESSION_STORAGE_KEY);
  });
  actor.start();

  const acting = actingIdFromQuery();
  if (acting !== null) actor.send({ type: 'ACTING_FOR.SET', customerId: acting });

  if (typeof window !== 'undefined') {
    let lastActivityMs = 0;
    const onInput = () => {
      const now = Date.now();
      if (now - lastActivityMs < ACTIVITY_THROTTLE_MS) return;
      lastActivityMs = now;
      actor?.send({ type: 'USER.ACTIVITY' });
    };
    for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const) {
      window.addEventListener(type, onInput, { passive: true, capture: true });
    }
  }
  return actor;
}

/* ------------------------------------------------------------ request hooks */

const inflightRefresh = new WeakMap<SessionActor, Promise<boolean>>();

/**
 * One refresh for any number of concurrent 401s: the first caller sends TOKEN.REFRESH, everyone
 * waits on the same promise, which settles when the machine leaves `refreshing`.
 */
function refreshOnce(actor: SessionActor): Promise<boolean> {
  const existing = inflightRefresh.get(actor);
  if (existing) return existing;
  if (!selectIsSignedIn(actor.getSnapshot())) return Promise.resolve(false);
  const promise = new Promise<boolean>((resolve) => {
    actor.send({ type: 'TOKEN.REFRESH' });
    const settle = (s: SessionSnapshot): boolean => {
      if (!s.matches('signedIn')) {
        resolve(false);
        return true;
      }
      if (s.matches({ signedIn: { token: 'fresh' } })) {
        resolve(true);
        return true;
      }
      return false;
    };
    if (settle(actor.getSnapshot())) return;
    const sub = actor.subscribe((s) => {
      if (settle(s)) sub.unsubscribe();
    });
  }).finally(() => inflightRefresh.delete(actor));
  inflightRefresh.set(actor, promise);
  return promise;
}

/**
 * What the request wrapper needs (configureRequest). There is no onActivity: a background refetch
 * must not keep a bank session alive; real user input (see createSessionActor) restarts the timer.
 */
export function sessionRequestHooks(actor: SessionActor) {
  return {
    getAccessToken: (): string | null => selectAccessToken(actor.getSnapshot()),
    refresh: (): Promise<boolean> => refreshOnce(actor),
    getActingCustomerId: (): number | null => selectActingCustomerId(actor.getSnapshot()),
  };
}

/* ---------------------------------------------------------------- queries */

export function isSignedIn(actor: SessionActor): boolean {
  return selectIsSignedIn(actor.getSnapshot());
}

export function needsKyc(actor: SessionActor): boolean {
  return selectNeedsKyc(actor.getSnapshot());
}

export function rememberPath(actor: SessionActor, path: string): void {
  actor.send({ type: 'PATH.REMEMBER', path });
}

/** Refreshes the tokens now (the /login route does this for a signed-in user). */
export function refreshSession(actor: SessionActor): Promise<boolean> {
  return refreshOnce(actor);
}

/** Signs out: revokes the refresh token, clears storage, caches and the push connection. */
export async function logout(actor: SessionActor): Promise<void> {
  if (!actor.getSnapshot().matches('signedIn') && !actor.getSnapshot().matches('signingOut')) return;
  actor.send({ type: 'SESSION.LOGOUT' });
  await waitFor(actor, (s) => s.matches('signedOut'));
}

export function useSessionCustomer(actor: SessionActor) {
  return useSelector(actor, selectCustomer);
}
