/**
 * Single sign-on ("sei", document 1 §2, §7): a partner sends the user to /auth/sei with its
 * client_id, redirect_uri, state and scope; the signed-in user approves or denies; the partner gets
 * a single-use code on its redirect URI and exchanges it (server to server) for who signed in.
 * Only registered clients and their exactly registered redirect URIs are served: anything else
 * is 404, so the platform never becomes an open redirector.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { SSO_AUTHORIZATION_TTL_S, SSO_CODE_TTL_S, type SeiAuthorizeResponse } from '../../../api/security.ts';
import type { Db } from '../../db/types.ts';
import { ssoAuthorizations, ssoClients } from '../auth/auth.tables.ts';
import { randomToken, sha256Hex } from '../auth/crypto.ts';
import { AuthFailure } from '../auth/tokens.service.ts';
import { customers, users } from '../customers/customers.tables.ts';
import type { Caller } from '../method-types.ts';

/**
 * The demo partner (server/db/seed.ts): its redirect URI is a path on the platform's own origin,
 * where sso.routes.ts serves a development-only partner page.
 */
export const DEMO_SSO_CLIENT_ID = 'demo-partner';
export const DEMO_SSO_CLIENT_NAME = 'Demo Partner';
export const DEMO_SSO_REDIRECT_PATH = '/dev/sso-partner';

export const SsoMessages = {
  unknownClient: 'Unknown client or redirect address',
  unknownAuthorization: 'Unknown, answered or expired authorisation',
  unknownCode: 'Unknown, used or expired code',
  restricted: 'Finish setting up your sign-in first',
} as const;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_STATE_LENGTH = 500;
const MAX_SCOPE_LENGTH = 200;

/** The partner's parameters from the authorisation URL (absolute or a path on this origin). */
export function parseAuthorizeUrl(authorizeUrl: string): { clientId: string; redirectUri: string; state: string | null; scope: string } | null {
  let url: URL;
  try {
    url = new URL(authorizeUrl, 'http://platform.invalid');
  } catch {
    return null;
  }
  const clientId = url.searchParams.get('client_id');
  const redirectUri = url.searchParams.get('redirect_uri');
  if (!clientId || !redirectUri) return null;
  const state = url.searchParams.get('state');
  return {
    clientId: clientId.slice(0, 100),
    redirectUri,
    state: state === null ? null : state.slice(0, MAX_STATE_LENGTH),
    scope: (url.searchParams.get('scope') ?? '').slice(0, MAX_SCOPE_LENGTH),
  };
}

function withQuery(redirectUri: string, params: Record<string, string | null>): string {
  const query = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([k, value]) => `${encodeURIComponent(k)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query}`;
}

export type SsoService = ReturnType<typeof createSsoService>;

export function createSsoService({ db, now }: { db: Db; now: () => number }) {
  const at = (ms: number) => new Date(ms);
  return {
    async authorize(caller: Caller, authorizeUrl: string): Promise<SeiAuthorizeResponse> {
      if (caller.restriction) throw new AuthFailure(403, SsoMessages.restricted);
      const params = parseAuthorizeUrl(authorizeUrl);
      if (!params) throw new AuthFailure(404, SsoMessages.unknownClient);
      const [client] = await db.select().from(ssoClients).where(eq(ssoClients.clientId, params.clientId));
      if (!client || !client.redirectUris.includes(params.redirectUri)) throw new AuthFailure(404, SsoMessages.unknownClient);
      const authorizationId = randomUUID();
      await db.insert(ssoAuthorizations).values({
        authorizationId,
        clientId: client.clientId,
        userId: caller.userId,
        redirectUri: params.redirectUri,
        state: params.state,
        scope: params.scope,
        createdAt: at(now()),
        expiresAt: at(now() + SSO_AUTHORIZATION_TTL_S * 1000),
      });
      return { authorizationId, clientName: client.name, scope: params.scope };
    },

    /** The user's answer: the partner's redirect URI with a code, or with access_denied. */
    async decide(caller: Caller, authorizationId: string, approve: boolean): Promise<{ redirect_uri: string }> {
      if (!UUID_PATTERN.test(authorizationId)) throw new AuthFailure(404, SsoMessages.unknownAuthorization);
      const code = approve ? randomToken() : null;
      // Answered once, atomically; another user's authorisation looks like an unknown one.
      const [row] = await db
        .update(ssoAuthorizations)
        .set(
          approve
            ? { status: 'approved', codeHash: sha256Hex(code!), expiresAt: at(now() + SSO_CODE_TTL_S * 1000) }
            : { status: 'denied' },
        )
        .where(
          and(
            eq(ssoAuthorizations.authorizationId, authorizationId),
            eq(ssoAuthorizations.userId, caller.userId),
            eq(ssoAuthorizations.status, 'pending'),
            gt(ssoAuthorizations.expiresAt, at(now())),
          ),
        )
        .returning();
      if (!row) throw new AuthFailure(404, SsoMessages.unknownAuthorization);
      return {
        redirect_uri: approve ? withQuery(row.redirectUri, { code, state: row.state }) : withQuery(row.redirectUri, { error: 'access_denied', state: row.state }),
      };
    },

    /** The partner exchanges the code once for who signed in. */
    async exchange(clientId: string, code: string): Promise<{ sub: string; email: string; firstName: string; lastName: string }> {
      const [row] = await db
        .update(ssoAuthorizations)
        .set({ status: 'exchanged' })
        .where(
          and(
            eq(ssoAuthorizations.codeHash, sha256Hex(code)),
            eq(ssoAuthorizations.clientId, clientId),
            eq(ssoAuthorizations.status, 'approved'),
            gt(ssoAuthorizations.expiresAt, at(now())),
          ),
        )
        .returning({ userId: ssoAuthorizations.userId });
      if (!row) throw new AuthFailure(404, SsoMessages.unknownCode);
      const [who] = await db
        .select({ email: users.email, firstName: customers.firstName, lastName: customers.lastName })
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(eq(users.id, row.userId));
      if (!who) throw new AuthFailure(404, SsoMessages.unknownCode);
      return { sub: String(row.userId), ...who };
    },
  };
}
