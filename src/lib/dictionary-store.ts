/**
 * A small framework-free store of reference dictionaries, one entry per
 * (dictionary, language[, countryCode][, hideAdult]), over the request wrapper's `call`.
 *
 * Rules (document 3 §7 "Dictionaries"):
 * - A load already in progress is not started twice: concurrent callers share one promise.
 * - An answer whose code is not success is returned to the caller WITHOUT updating the stored
 *   list: the previous list stays and keeps being served.
 * - Address document types (dictionaryCustomerAddressDocumentTypes) need a token: they are cached
 *   per country and fetched only while `isSignedIn()`; otherwise the load answers AU without a call.
 *
 * `subscribe` + `get` fit React's useSyncExternalStore: `get` returns the same object until the
 * entry changes.
 */
import * as v from 'valibot';
import { dictionaryMethods, type DictionaryMethodName } from '../../api/dictionaries.ts';
import { ResponseCode } from '../../api/envelope.ts';
import type { RequestOf, ResponseOf } from '../../api/method.ts';

/** The request wrapper, as written by the transport layer. */
export type DictionaryCall = (
  name: string,
  payload: object,
) => Promise<{ responseCode: string } & Record<string, unknown>>;

export type DictionaryLanguage = 'en' | 'es' | 'pt' | 'ro' | 'ru' | 'uk';

type Method<N extends DictionaryMethodName> = (typeof dictionaryMethods)[N];
export type DictionaryAnswer<N extends DictionaryMethodName> = ResponseOf<Method<N>>;
/** What a failed load hands back: the server's failure answer (or one made here, see below). */
export type DictionaryFailure = { responseCode: string } & Record<string, unknown>;
export type DictionaryParams<N extends DictionaryMethodName> = Omit<RequestOf<Method<N>>, 'lang' | 'fromCustomerId'> & {
  lang: DictionaryLanguage;
};

export interface DictionaryStoreOptions {
  call: DictionaryCall;
  /** Address document types are only fetched while this is true. */
  isSignedIn: () => boolean;
  /** Bound on cached entries (languages x countries); the oldest entry goes first. */
  maxEntries?: number;
}

export interface DictionaryStore {
  /**
   * The stored answer, or the answer of a new load when none is stored (or `refresh` is set).
   * Never rejects for a failed answer: a failure comes back as the failure answer.
   */
  load<N extends DictionaryMethodName>(
    name: N,
    params: DictionaryParams<N>,
    options?: { refresh?: boolean },
  ): Promise<DictionaryAnswer<N> | DictionaryFailure>;
  /** The stored successful answer, if any (same object until it changes). */
  get<N extends DictionaryMethodName>(name: N, params: DictionaryParams<N>): DictionaryAnswer<N> | undefined;
  /** Whether a load of this entry is in progress. */
  isLoading<N extends DictionaryMethodName>(name: N, params: DictionaryParams<N>): boolean;
  subscribe(listener: () => void): () => void;
  /** Drop stored answers: all, or those of one dictionary (e.g. address types at sign-out). */
  clear(name?: DictionaryMethodName): void;
}

const ADDRESS_TYPES: DictionaryMethodName = 'dictionaryCustomerAddressDocumentTypes';
const DEFAULT_MAX_ENTRIES = 200;

interface Entry {
  name: DictionaryMethodName;
  data: unknown;
  inFlight: Promise<unknown> | undefined;
  /** Bumped by clear(): a load that started before the clear does not store its (stale) answer. */
  generation: number;
}

/** A stable key: the method name and its parameters in a fixed order. */
function keyOf(name: DictionaryMethodName, params: Record<string, unknown>): string {
  const parts = Object.keys(params)
    .filter((k) => params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${String(params[k])}`);
  return `${name}?${parts.join('&')}`;
}

export function createDictionaryStore(options: DictionaryStoreOptions): DictionaryStore {
  const { call, isSignedIn } = options;
  const maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const evictOldest = () => {
    for (const [key, entry] of entries) {
      if (entries.size <= maxEntries) return;
      if (!entry.inFlight) entries.delete(key);
    }
  };

  async function fetchAnswer(name: DictionaryMethodName, payload: Record<string, unknown>, entry: Entry) {
    const startedIn = entry.generation;
    const answer = await call(name, payload);
    if (answer.responseCode !== ResponseCode.success) return answer;
    // Parse with the contract, so a malformed answer is never stored as a list.
    const parsed = v.safeParse(dictionaryMethods[name].response, answer);
    if (!parsed.success) {
      return { responseCode: ResponseCode.unknown, responseDescription: `malformed ${name} answer` };
    }
    if (startedIn === entry.generation) entry.data = parsed.output;
    return parsed.output;
  }

  function load<N extends DictionaryMethodName>(
    name: N,
    params: DictionaryParams<N>,
    loadOptions: { refresh?: boolean } = {},
  ): Promise<DictionaryAnswer<N> | DictionaryFailure> {
    if (name === ADDRESS_TYPES && !isSignedIn()) {
      return Promise.resolve({ responseCode: ResponseCode.auth, responseDescription: 'sign-in required' });
    }
    const payload = params as Record<string, unknown>;
    const key = keyOf(name, payload);
    let entry = entries.get(key);
    if (!entry) {
      entry = { name, data: undefined, inFlight: undefined, generation: 0 };
      entries.set(key, entry);
    }
    if (entry.inFlight) return entry.inFlight as Promise<DictionaryAnswer<N> | DictionaryFailure>;
    if (entry.data !== undefined && !loadOptions.refresh) {
      return Promise.resolve(entry.data as DictionaryAnswer<N>);
    }
    const current = entry;
    const promise = fetchAnswer(name, payload, current).finally(() => {
      current.inFlight = undefined;
      notify();
    });
    current.inFlight = promise;
    evictOldest();
    notify();
    return promise as Promise<DictionaryAnswer<N> | DictionaryFailure>;
  }

  return {
    load,
    get(name, params) {
      return entries.get(keyOf(name, params as Record<string, unknown>))?.data as DictionaryAnswer<typeof name> | undefined;
    },
    isLoading(name, params) {
      return entries.get(keyOf(name, params as Record<string, unknown>))?.inFlight !== undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear(name) {
      for (const [key, entry] of entries) {
        if (name !== undefined && entry.name !== name) continue;
        // An in-flight load keeps its entry so it is still shared, but will not store its answer.
        entry.generation += 1;
        if (entry.inFlight) entry.data = undefined;
        else entries.delete(key);
      }
      notify();
    },
  };
}
