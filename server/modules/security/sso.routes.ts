/**
 * Single sign-on paths (api/security.ts) and, in demo mode only, a tiny partner page at
 * DEMO_SSO_REDIRECT_PATH that starts a sign-in and shows who came back (server-rendered, escaped,
 * no script: the Content-Security-Policy allows none inline).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SeiAuthorizeRequestSchema, SeiDecisionRequestSchema, SeiTokenRequestSchema, securityPaths } from '../../../api/security.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import { AuthFailure } from '../auth/tokens.service.ts';
import { answerFailure, parseBody, requireUser } from './http.ts';
import { DEMO_SSO_CLIENT_ID, DEMO_SSO_CLIENT_NAME, DEMO_SSO_REDIRECT_PATH, type SsoService } from './sso.service.ts';


const html = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface SsoRoutesOptions {
  tokens: Pick<TokenService, 'authenticate'>;
  sso: SsoService;
  /** serve the demo partner page (demo mode only, like the demo client it belongs to) */
  devPartner: boolean;
}

export async function ssoRoutes(app: FastifyInstance, { tokens, sso, devPartner }: SsoRoutesOptions): Promise<void> {
  app.post(securityPaths.seiAuthorize, async (request, reply) => {
    try {
      const caller = await requireUser(tokens, request);
      const input = parseBody(SeiAuthorizeRequestSchema, request.body);
      return reply.send(await sso.authorize(caller, input.authorizeUrl));
    } catch (err) {
      return answerFailure(reply, request, err);
    }
  });

  app.post<{ Params: { authorizationId: string } }>('/auth/sei/authorize/:authorizationId', async (request, reply) => {
    try {
      const caller = await requireUser(tokens, request);
      const input = parseBody(SeiDecisionRequestSchema, request.body);
      return reply.send(await sso.decide(caller, request.params.authorizationId, input.params.approve));
    } catch (err) {
      return answerFailure(reply, request, err);
    }
  });

  app.post(securityPaths.seiToken, async (request, reply) => {
    try {
      const input = parseBody(SeiTokenRequestSchema, request.body);
      return reply.send(await sso.exchange(input.client_id, input.code));
    } catch (err) {
      return answerFailure(reply, request, err);
    }
  });

  if (!devPartner) return;

  app.get<{ Querystring: Record<string, string | undefined> }>(DEMO_SSO_REDIRECT_PATH, async (request, reply) => {
    const { code, error } = request.query;
    let result: string;
    if (typeof code === 'string' && code.length > 0 && code.length <= 200) {
      try {
        // Server to server, as a real partner would: the code never reaches the partner's browser code.
        const who = await sso.exchange(DEMO_SSO_CLIENT_ID, code);
        result = `<p role="status">Signed in as <strong>${html(`${who.firstName} ${who.lastName}`.trim() || who.email)}</strong> (${html(who.email)}), user ${html(who.sub)}.</p>`;
      } catch (err) {
        if (!(err instanceof AuthFailure)) throw err;
        result = `<p role="alert">The code was refused: ${html(err.message)}.</p>`;
      }
    } else if (typeof error === 'string') {
      result = `<p role="alert">The sign-in was not approved (${html(error.slice(0, 100))}).</p>`;
    } else {
      result = '<p>Nobody has signed in here yet.</p>';
    }
    const state = randomBytes(12).toString('base64url');
    const start = `/auth/sei?client_id=${encodeURIComponent(DEMO_SSO_CLIENT_ID)}&redirect_uri=${encodeURIComponent(DEMO_SSO_REDIRECT_PATH)}&state=${state}&scope=profile`;
    reply.type('text/html; charset=utf-8');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(DEMO_SSO_CLIENT_NAME)}</title></head>
<body><main>
<h1>${html(DEMO_SSO_CLIENT_NAME)}</h1>
<p>A development partner site that signs its users in with the platform (single sign-on). Development only.</p>
${result}
<p><a href="${html(start)}">Sign in with your bank</a></p>
</main></body></html>`;
  });
}
