/**
 * The token service client (document 1 §7 "Token service"): POST /auth/login, /auth/token,
 * /auth/refresh and /auth/logout. Expected failures come back as values, never thrown:
 * `{ ok: false, status, message }` where status 0 means the call got no answer (network, time-out)
 * and -1 means the answer did not match the contract.
 */
import * as v from 'valibot';
import {
  authPaths,
  AuthErrorSchema,
  LoginResponseSchema,
  TokensSchema,
  type LoginRequest,
  type LoginResponse,
  type TokenRequest,
  type Tokens,
} from '../../api/auth.ts';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER, REQUEST_TIMEOUT_MS } from '../../api/http.ts';

export type TokenResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

export interface TokenClientDeps {
  /** full URL of a token-service path, e.g. getAuthUrl from src/lib/api-base.ts */
  authUrl(path: string): string;
  /** value of Accept-Language */
  language(): string;
  fetchFn?: typeof fetch;
  timeoutMs?: number;
}

/** Statuses the contract names; the message is what the view may map to a code. */
export const NETWORK_STATUS = 0;
export const MALFORMED_STATUS = -1;

export function createTokenClient(deps: TokenClientDeps) {
  const doFetch = deps.fetchFn ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;

  async function post<T>(path: string, body: unknown, schema: v.GenericSchema<unknown, T> | null): Promise<TokenResult<T>> {
    let res: Response;
    try {
      res = await doFetch(deps.authUrl(path), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Accept-Language': deps.language(),
          [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      return { ok: false, status: NETWORK_STATUS, message: e instanceof Error && e.name === 'TimeoutError' ? 'timeout' : 'network error' };
    }
    if (!res.ok) {
      const json: unknown = await res.json().catch(() => null);
      const parsed = v.safeParse(AuthErrorSchema, json);
      // Document 1 §8: token fetch failures read "bad status" when the server gave no message.
      return { ok: false, status: res.status, message: parsed.success ? parsed.output.message : 'bad status' };
    }
    if (schema === null) return { ok: true, data: undefined as T };
    const json: unknown = await res.json().catch(() => undefined);
    const parsed = v.safeParse(schema, json);
    if (!parsed.success) return { ok: false, status: MALFORMED_STATUS, message: 'strange error' };
    return { ok: true, data: parsed.output };
  }

  return {
    login: (req: LoginRequest): Promise<TokenResult<LoginResponse>> => post(authPaths.login, req, LoginResponseSchema),
    exchangeCode: (req: TokenRequest): Promise<TokenResult<Tokens>> => post(authPaths.token, req, TokensSchema),
    refresh: (refreshToken: string): Promise<TokenResult<Tokens>> =>
      post(authPaths.refresh, { refreshToken }, TokensSchema),
    logout: (refreshToken: string): Promise<TokenResult<void>> => post<void>(authPaths.logout, { refreshToken }, null),
  };
}

export type TokenClient = ReturnType<typeof createTokenClient>;

/**
 * The app's client. Same origin and English until the app configures it (session-actor.ts does,
 * with api-base and i18n), so this module stays free of app imports and testable in node.
 */
let client: TokenClient = createTokenClient({ authUrl: (path) => path, language: () => 'en' });

export function configureTokenClient(deps: TokenClientDeps): void {
  client = createTokenClient(deps);
}

export const login = (req: LoginRequest) => client.login(req);
export const exchangeCode = (req: TokenRequest) => client.exchangeCode(req);
export const refresh = (refreshToken: string) => client.refresh(refreshToken);
export const logout = (refreshToken: string) => client.logout(refreshToken);
