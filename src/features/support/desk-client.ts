/**
 * The support desk's client (document 3 §4 Support tickets, §7 Support; api/support.ts).
 *
 * Two services:
 * - the product server's zoho/* paths, with the session's bearer token (one refresh and replay on
 *   401, as every call of the app); a business user acting for a company passes fromCustomerId;
 * - the desk (the variant's supportDeskBase, else the platform's built-in desk at /api/v1): the
 *   zoho/jwt token is exchanged once at POST /me for a desk token, kept in memory (never stored)
 *   per acting customer until shortly before it expires, and sent as Bearer on every desk path.
 *   A 401 from the desk authenticates again once (a new jwt, a new desk token) and replays.
 *
 * The failure flag (document 3 §4): a 429 from either service sets it; from then on every support
 * request is stopped here, without reaching the network, until one succeeds. After the support
 * timer's tick (SUPPORT_TIMER_MS) one request at a time is let through as a probe: its success
 * clears the flag, another 429 sets it again.
 *
 * Expected failures are values, never thrown. Tokens and file contents are sent, never logged.
 */
import * as v from 'valibot';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER, CUSTOMER_ID_HEADER, REQUEST_TIMEOUT_MS } from '../../../api/http.ts';
import { BUILTIN_DESK_BASE, DeskErrorSchema, DeskJwtAnswerSchema, DeskMeAnswerSchema, SUPPORT_ROUTES, SUPPORT_TIMER_MS } from '../../../api/support.ts';
import { activeVariant } from '../../../variants/index.ts';
import { getApiOrigin } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { requestHooks, type RequestHooks } from '../../lib/request-hooks.ts';

/** The widget the app's jwt is asked for (document 3 §7: GET zoho/jwt takes widgetId). */
export const SUPPORT_WIDGET_ID = 'web';
/** A desk token is renewed this long before it expires (a request in flight must not outlive it). */
const TOKEN_MARGIN_MS = 30_000;

export type DeskError = v.InferOutput<typeof DeskErrorSchema>;
export type DeskFailureCode = 'network' | 'rateLimited' | 'auth' | 'notFound' | 'conflict' | 'invalid' | 'unavailable';
export type DeskFailure = { ok: false; code: DeskFailureCode; status: number | null; error: DeskError | null };
export type DeskResult<T> = { ok: true; value: T } | DeskFailure;

export interface DeskEnv {
  fetch(input: string, init: RequestInit): Promise<Response>;
  now(): number;
  hooks(): Pick<RequestHooks, 'getAccessToken' | 'refresh' | 'getActingCustomerId'>;
  /** the platform's origin ('' = the app's) */
  origin(): string;
  /** the desk's base URL: the variant's, else the built-in desk's */
  deskBase(): string;
}

const defaultEnv: DeskEnv = {
  fetch: (input, init) => globalThis.fetch(input, init),
  now: () => Date.now(),
  hooks: () => requestHooks(),
  origin: () => getApiOrigin(),
  deskBase: () => activeVariant.api.supportDeskBase || `${getApiOrigin()}${BUILTIN_DESK_BASE}`,
};

interface DeskToken {
  token: string;
  expiresAtMs: number;
}

type Body = { json: unknown } | { form: FormData } | null;

export interface DeskRequest<T> {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: Body;
  /** the answer's schema; absent: the answer is read as a Blob */
  schema?: v.GenericSchema<unknown, T>;
}

function withQuery(url: string, query: Record<string, string | number | undefined> | undefined): string {
  const entries = Object.entries(query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
  if (entries.length === 0) return url;
  return `${url}?${new URLSearchParams(entries.map(([k, val]) => [k, String(val)])).toString()}`;
}

async function readError(response: Response): Promise<DeskError | null> {
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = v.safeParse(DeskErrorSchema, body);
  return parsed.success ? parsed.output : null;
}

function codeOf(status: number): DeskFailureCode {
  if (status === 429) return 'rateLimited';
  if (status === 401) return 'auth';
  if (status === 403 || status === 404) return 'notFound';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'unavailable';
  return 'invalid';
}

export class DeskClient {
  private tokens = new Map<string, DeskToken>();
  private authenticating = new Map<string, Promise<DeskResult<DeskToken>>>();
  /** the failure flag: set by a 429, cleared by the next success */
  private flag: { atMs: number; probing: boolean } | null = null;
  private listeners = new Set<() => void>();

  constructor(private env: DeskEnv = defaultEnv) {}

  /** Whether support answered 429 and nothing has succeeded since. */
  get rateLimited(): boolean {
    return this.flag !== null;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets the desk tokens (sign-out, another user). */
  reset(): void {
    this.tokens.clear();
    this.authenticating.clear();
    this.flag = null;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private acting(): number | null {
    return this.env.hooks().getActingCustomerId();
  }

  /** The failure flag's gate: a request may go out, or is stopped here. Returns a release for a probe. */
  private gate(): { pass: true; probe: boolean } | { pass: false } {
    if (this.flag === null) return { pass: true, probe: false };
    if (this.env.now() - this.flag.atMs < SUPPORT_TIMER_MS || this.flag.probing) return { pass: false };
    this.flag.probing = true;
    return { pass: true, probe: true };
  }

  private settle(status: number | null, probe: boolean): void {
    if (status === 429) {
      this.flag = { atMs: this.env.now(), probing: false };
      this.notify();
      return;
    }
    if (probe && this.flag) this.flag.probing = false;
    if (status !== null && status < 400 && this.flag !== null) {
      this.flag = null;
      this.notify();
    }
  }

  private async send(url: string, init: RequestInit): Promise<Response | DeskFailure> {
    const gate = this.gate();
    if (!gate.pass) return { ok: false, code: 'rateLimited', status: null, error: null };
    let response: Response | null = null;
    try {
      response = await this.env.fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch {
      response = null;
    }
    this.settle(response?.status ?? null, gate.probe);
    if (response === null) return { ok: false, code: 'network', status: null, error: null };
    return response;
  }

  private baseHeaders(): Headers {
    return new Headers({ Accept: 'application/json', 'Accept-Language': getUiLanguageTag(), [CLIENT_VERSION_HEADER]: CLIENT_VERSION });
  }

  /** GET a product-server support path (zoho/*) with the session's token; fromCustomerId when acting for a company. */
  async product<T>(path: string, schema: v.GenericSchema<unknown, T>, query: Record<string, string | number | undefined> = {}): Promise<DeskResult<T>> {
    const acting = this.acting();
    const url = withQuery(`${this.env.origin()}${path}`, { ...query, ...(acting === null ? {} : { fromCustomerId: acting }) });
    const headersNow = () => {
      const headers = this.baseHeaders();
      const token = this.env.hooks().getAccessToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      if (acting !== null) headers.set(CUSTOMER_ID_HEADER, String(acting));
      return headers;
    };
    let response = await this.send(url, { method: 'GET', headers: headersNow() });
    if (response instanceof Response && response.status === 401) {
      await response.arrayBuffer().catch(() => undefined);
      if (
        await this.env
          .hooks()
          .refresh()
          .catch(() => false)
      )
        response = await this.send(url, { method: 'GET', headers: headersNow() });
    }
    if (!(response instanceof Response)) return response;
    if (!response.ok) return { ok: false, code: codeOf(response.status), status: response.status, error: await readError(response) };
    const body: unknown = await response.json().catch(() => undefined);
    const parsed = v.safeParse(schema, body);
    return parsed.success ? { ok: true, value: parsed.output } : { ok: false, code: 'invalid', status: response.status, error: null };
  }

  /** The desk token of the acting customer: the cached one, or jwt → POST /me (one exchange at a time). */
  private async deskToken(renew: boolean): Promise<DeskResult<DeskToken>> {
    const key = String(this.acting() ?? 'self');
    const cached = this.tokens.get(key);
    if (!renew && cached && cached.expiresAtMs - TOKEN_MARGIN_MS > this.env.now()) return { ok: true, value: cached };
    if (renew) this.tokens.delete(key);
    const running = this.authenticating.get(key);
    if (running) return running;
    const exchange = (async (): Promise<DeskResult<DeskToken>> => {
      const jwt = await this.product(SUPPORT_ROUTES.jwt, DeskJwtAnswerSchema, { widgetId: SUPPORT_WIDGET_ID });
      if (!jwt.ok) return jwt;
      const headers = this.baseHeaders();
      headers.set('Content-Type', 'application/json');
      const response = await this.send(`${this.env.deskBase()}/me`, { method: 'POST', headers, body: JSON.stringify({ jwt: jwt.value.jwt }), credentials: 'omit' });
      if (!(response instanceof Response)) return response;
      if (!response.ok) return { ok: false, code: codeOf(response.status), status: response.status, error: await readError(response) };
      const parsed = v.safeParse(DeskMeAnswerSchema, await response.json().catch(() => undefined));
      if (!parsed.success) return { ok: false, code: 'invalid', status: response.status, error: null };
      const token = { token: parsed.output.token, expiresAtMs: this.env.now() + parsed.output.expiresIn * 1000 };
      this.tokens.set(key, token);
      return { ok: true, value: token };
    })();
    this.authenticating.set(key, exchange);
    try {
      return await exchange;
    } finally {
      this.authenticating.delete(key);
    }
  }

  /** A desk path with the desk token; one re-authentication and replay on 401. */
  async desk<T>(request: DeskRequest<T>): Promise<DeskResult<T>> {
    const attempt = async (renew: boolean): Promise<Response | DeskFailure> => {
      const token = await this.deskToken(renew);
      if (!token.ok) return token;
      const headers = this.baseHeaders();
      headers.set('Authorization', `Bearer ${token.value.token}`);
      if (!request.schema) headers.set('Accept', '*/*');
      let body: BodyInit | undefined;
      if (request.body && 'json' in request.body) {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(request.body.json);
      } else if (request.body && 'form' in request.body) body = request.body.form;
      return this.send(withQuery(`${this.env.deskBase()}${request.path}`, request.query), { method: request.method, headers, body, credentials: 'omit' });
    };
    let response = await attempt(false);
    if (response instanceof Response && response.status === 401) {
      await response.arrayBuffer().catch(() => undefined);
      response = await attempt(true);
    }
    if (!(response instanceof Response)) return response;
    if (!response.ok) return { ok: false, code: codeOf(response.status), status: response.status, error: await readError(response) };
    if (!request.schema) {
      try {
        return { ok: true, value: (await response.blob()) as T };
      } catch {
        return { ok: false, code: 'network', status: null, error: null };
      }
    }
    const parsed = v.safeParse(request.schema, await response.json().catch(() => undefined));
    if (parsed.success) return { ok: true, value: parsed.output };
    console.error(
      '[support] a desk answer does not match the contract at',
      parsed.issues.map((i) => v.getDotPath(i) ?? '(root)'),
    );
    return { ok: false, code: 'invalid', status: response.status, error: null };
  }
}

/** The app's one desk client (its tokens live as long as the page). */
export const deskClient = new DeskClient();

/** `/tickets/:id/threads/:threadId` with the ids filled in. */
export function deskPath(template: string, ids: Record<string, number>): string {
  return template.replace(/:(\w+)/g, (whole, name: string) => (ids[name] === undefined ? whole : String(ids[name])));
}
