/**
 * Security headers on every answer (written here rather than by a plugin so that every rule is
 * visible): no inline script, connections only to this origin and its push socket, never framed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const HOST_PATTERN = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The policy of the last Host seen (one host behind a proxy: built once, not per answer). */
let lastPolicy: { host: string | undefined; value: string } | null = null;

export function contentSecurityPolicy(request: FastifyRequest): string {
  const host = request.headers.host;
  if (lastPolicy && lastPolicy.host === host) return lastPolicy.value;
  const value = policyFor(host);
  lastPolicy = { host, value };
  return value;
}

function policyFor(host: string | undefined): string {
  // 'self' covers same-origin ws: in current browsers; the explicit socket URLs cover the rest.
  const sockets = host && HOST_PATTERN.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const PERMISSIONS_POLICY =
  'accelerometer=(), autoplay=(), camera=(self), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()';

/** HSTS: a year, subdomains included (issue 11); browsers then never try plain http on this host. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * The build's content-hashed scripts and stylesheets (/assets/*.js, *.css, no query). A browser
 * applies Content-Security-Policy, Permissions-Policy, X-Frame-Options, Referrer-Policy and
 * Cross-Origin-Opener-Policy to documents (and workers, which this app has none of), never to a
 * script or stylesheet it loads into a page, so those files carry nosniff, CORP and HSTS only.
 * Everything else (pages, the API, errors, 404s, other files such as SVG that could be opened as
 * a document) carries every header.
 */
const BUILD_SCRIPT_OR_STYLE = /^\/assets\/[A-Za-z0-9_.-]+\.(?:js|css)$/;

/**
 * production: HSTS on every answer (pages, files, API answers, errors, 404s), whatever the
 * request's protocol, since TLS ends at the proxy in front; otherwise only on an https request.
 */
export function securityHeaders(app: FastifyInstance, options: { production: boolean }): void {
  // A synchronous hook (no promise per answer): it runs on every request.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (BUILD_SCRIPT_OR_STYLE.test(request.url)) {
      // The build's scripts and stylesheets: only what acts on a subresource (issue 12: the
      // policies below act on documents only, about 0.5 kB on each of the files a page loads).
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Cross-Origin-Resource-Policy', 'same-origin');
      if (options.production || request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS_VALUE);
      done(null, payload);
      return;
    }
    reply.header('Content-Security-Policy', contentSecurityPolicy(request));
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    if (options.production || request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS_VALUE);
    if (request.url.startsWith('/api/') || request.url.startsWith('/auth/')) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });
}
