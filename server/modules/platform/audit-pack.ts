/**
 * The statechart audit pack (`npm run audit-pack`, written to dist/audit/) for administrators at
 * /audit/.
 *
 * Design: the pack's files are answered only to a request carrying a valid administrator's
 * access token (`Authorization: Bearer`, checked by the token service as for the admin-only
 * named methods of /admin-overview: a signed-in caller whose user is an administrator, in a
 * session without restriction). The platform has no session cookie (the web app keeps its access
 * token in memory and sends it as a header), so a plain page load of /audit/ cannot prove who
 * asks and is answered 401: the pack is never public. The web app shows it to an administrator
 * by fetching the pages with its token (as it fetches everything else) and displaying the
 * answer; the pack itself needs no script and only relative links, so the same files also open
 * from the file system (dist/audit/index.html) for an auditor given a copy.
 *
 * Opening it from the app (the admin overview's link): a page load cannot send a header, so the
 * app first posts the administrator's token to POST /audit/session, which answers 204 with the
 * same token in an HttpOnly, SameSite=Strict cookie scoped to /audit/ for an access token's life
 * (ACCESS_TOKEN_TTL_S, 5 minutes; the token itself is refused once expired), then opens /audit/ in a new tab. The cookie grants
 * nothing but reading the pack, is checked exactly as the header is (a signed-out or revoked
 * session's token is refused), never reaches any other path, and is never logged (log.ts redacts
 * cookies). After it expires the pack answers 401 and the link opens it again.
 *
 * No token (or an invalid one) 401, a token that is not an administrator's 403, a file the pack
 * does not have 404 (for an administrator only: others learn nothing about the pack's files).
 * Registered before the web app's static files (serveWebApp), whose root would otherwise serve
 * dist/audit/ to anyone.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenService } from '../auth/tokens.service.ts';
import { bearerToken, tokenValue } from './bearer.ts';
import { ACCESS_TOKEN_TTL_S } from '../../../api/auth.ts';

export const AUDIT_PACK_PATH = '/audit/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export interface AuditPackRoutesOptions {
  tokens: Pick<TokenService, 'authenticate'>;
  /** the pack's folder (dist/audit), or null when the web app is not served */
  auditDir: string | null;
}

/** The cookie that carries the administrator's access token to the pack's pages (see above). */
export const AUDIT_COOKIE = 'wlb_audit';

/** The pack's cookie in a Cookie header (the first of that name), or undefined. */
function auditCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eqAt = part.indexOf('=');
    if (eqAt > 0 && part.slice(0, eqAt).trim() === AUDIT_COOKIE) return part.slice(eqAt + 1).trim();
  }
  return undefined;
}

/** The request's token: the Authorization header, else the pack's cookie. */
function auditToken(request: FastifyRequest): string | null {
  return bearerToken(request) ?? tokenValue(auditCookie(request.headers.cookie));
}

export async function auditPackRoutes(app: FastifyInstance, { tokens, auditDir }: AuditPackRoutesOptions): Promise<void> {
  app.post('/audit/session', async (request, reply) => {
    const token = bearerToken(request);
    const caller = await tokens.authenticate(token);
    if (!caller || !token) return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ message: 'Sign-in required' });
    if (!caller.isAdmin || caller.restriction) return reply.code(403).send({ message: 'Administrators only' });
    const secure = request.protocol === 'https';
    return reply
      .code(204)
      .header('Cache-Control', 'no-store')
      .header('Set-Cookie', `${AUDIT_COOKIE}=${token}; Path=${AUDIT_PACK_PATH}; Max-Age=${ACCESS_TOKEN_TTL_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`)
      .send();
  });

  const answer = async (request: FastifyRequest, reply: FastifyReply, file: string) => {
    const caller = await tokens.authenticate(auditToken(request));
    if (!caller) return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ message: 'Sign-in required' });
    if (!caller.isAdmin || caller.restriction) return reply.code(403).send({ message: 'Administrators only' });
    // Only plain file names and folders of the pack: no way out of it.
    const relative = normalize(file || 'index.html');
    const extension = relative.slice(relative.lastIndexOf('.'));
    if (!auditDir || relative.startsWith('..') || relative.includes(`${sep}..`) || !TYPES[extension]) return reply.code(404).send({ message: 'Not found' });
    const path = join(auditDir, relative);
    if (!path.startsWith(auditDir + sep) || !existsSync(path) || !statSync(path).isFile()) {
      return reply.code(404).send({ message: auditDir && existsSync(join(auditDir, 'index.html')) ? 'Not found' : 'The audit pack is not built: run `npm run audit-pack`.' });
    }
    return reply
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .type(TYPES[extension] as string)
      .send(readFileSync(path));
  };
  // The platform ignores a trailing slash: this is /audit and /audit/ alike.
  app.get('/audit', (request, reply) => answer(request, reply, ''));
  app.get<{ Params: { '*': string } }>('/audit/*', (request, reply) => answer(request, reply, request.params['*']));
}
