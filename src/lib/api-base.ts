/**
 * Which backend the app talks to (document 1 §7 "versioned base", §2 "An api query value selects
 * the backend", §3 "Stored client settings").
 *
 * Default: the variant's production base ('' = the same origin that served the app).
 * Override, in this order: localStorage customApiUrl (a full URL), then customApiIndex (staging
 * 1-15 of the variant). The `api` query value writes that override: an index 1-15, a URL, or
 * `production`/`0` to clear it. customWssUrl overrides the push socket alone.
 *
 * A URL override would send the user's tokens to any host a link names, so it is accepted only in
 * development builds; numbered staging bases come from the variant's own data and are always
 * allowed.
 */
import { API_VERSION_PATH } from '../../api/http.ts';
import { PUSH_PATH } from '../../api/push.ts';
import { activeVariant } from '../../variants/index.ts';
import { STAGING_COUNT, stagingBase, type Variant } from '../../variants/schema.ts';

export const storageKeys = {
  index: 'customApiIndex',
  url: 'customApiUrl',
  wss: 'customWssUrl',
} as const;

interface ApiBaseEnv {
  variant: Pick<Variant, 'api'>;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** whether full-URL overrides are accepted (development builds) */
  allowCustomUrl: boolean;
  /** the page's location, or null outside a browser */
  location: { protocol: string; host: string } | null;
}

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isDevBuild(): boolean {
  try {
    return import.meta.env.DEV === true;
  } catch {
    return false;
  }
}

let env: ApiBaseEnv = {
  variant: activeVariant,
  storage: browserStorage(),
  allowCustomUrl: isDevBuild(),
  location: typeof window === 'undefined' ? null : window.location,
};

/** Tests replace parts of the environment. */
export function configureApiBase(overrides: Partial<ApiBaseEnv>): void {
  env = { ...env, ...overrides };
}

function parseHttpUrl(value: string, protocols: readonly string[]): string | null {
  try {
    const url = new URL(value);
    if (!protocols.includes(url.protocol)) return null;
    // An origin plus optional path; no trailing slash so paths join cleanly.
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

function parseIndex(value: string | null): number | null {
  if (value === null || !/^\d{1,2}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= STAGING_COUNT ? n : null;
}

/**
 * Applies the `api` query value: an index 1-15 selects that staging base, a URL (development
 * only) a custom one, `production` or `0` clears the override. Returns false (and changes
 * nothing) for anything else.
 */
export function applyApiQuery(value: string | null): boolean {
  if (value === null) return false;
  const storage = env.storage;
  const trimmed = value.trim();
  if (trimmed === 'production' || trimmed === '0') {
    storage?.removeItem(storageKeys.index);
    storage?.removeItem(storageKeys.url);
    return true;
  }
  const index = parseIndex(trimmed);
  if (index !== null) {
    storage?.setItem(storageKeys.index, String(index));
    storage?.removeItem(storageKeys.url);
    return true;
  }
  const url = env.allowCustomUrl ? parseHttpUrl(trimmed, ['http:', 'https:']) : null;
  if (url !== null) {
    storage?.setItem(storageKeys.url, url);
    storage?.removeItem(storageKeys.index);
    return true;
  }
  console.warn('[api-base] ignored the api query value: expected 1-15, production, or a URL in development');
  return false;
}

/** The origin (and base path) of the platform: '' means the app's own origin. */
export function getApiOrigin(): string {
  const storage = env.storage;
  if (env.allowCustomUrl) {
    const custom = storage?.getItem(storageKeys.url);
    const url = custom ? parseHttpUrl(custom, ['http:', 'https:']) : null;
    if (url !== null) return url;
  }
  const index = parseIndex(storage?.getItem(storageKeys.index) ?? null);
  if (index !== null) return stagingBase(env.variant, index);
  return env.variant.api.production;
}

/** `${origin}/api/v1/?${name}` */
export function getMethodUrl(name: string): string {
  return `${getApiOrigin()}${API_VERSION_PATH}/?${name}`;
}

/** `${origin}${path}` for the token service (/auth/...). */
export function getAuthUrl(path: string): string {
  return `${getApiOrigin()}${path}`;
}

/** The graphql-ws socket: customWssUrl, else the API origin (or the page's host) with ws(s). */
export function getPushUrl(): string {
  const custom = env.allowCustomUrl ? env.storage?.getItem(storageKeys.wss) : null;
  const customUrl = custom ? parseHttpUrl(custom, ['ws:', 'wss:']) : null;
  if (customUrl !== null) return customUrl;
  const origin = getApiOrigin();
  if (origin !== '') return `${origin.replace(/^http/, 'ws')}${PUSH_PATH}`;
  const loc = env.location;
  if (loc === null) throw new Error('getPushUrl needs a page location when the API is on the same origin');
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${PUSH_PATH}`;
}
