/**
 * Serves the built web app (dist/) with a history fallback: a GET of a path that is neither a
 * file nor an API path answers index.html, so deep links reach the client router.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEVICE_COMPANION_PATH } from '../../../api/devices.ts';
import { EARLY_READ_HTML, EARLY_READ_PAGES } from '../../../api/early-read-pages.ts';
import { markDemoHtml } from './demo-marks.ts';

/** The device companion's page (a second Vite entry) and its manifest's type (not in every mime table). */
const DEVICE_HTML = 'device.html';
const MANIFEST_TYPE = 'application/manifest+json; charset=utf-8';

const API_PREFIXES = ['/api/', '/auth/', '/graphql', '/dev/'];
/** Web app pages under an API prefix: the single sign-on entry a partner links to (document 1 §2). */
const WEB_PATHS_UNDER_API = ['/auth/sei'];

export { DEMO_META, DEV_MAILBOX_META } from './demo-marks.ts';

export interface WebAppOptions {
  /** demo mode: mark the HTML (demo-marks.ts) */
  demo: boolean;
  /** the development mailbox is served: the Demo bar links to it */
  devMailbox: boolean;
}

export async function serveWebApp(app: FastifyInstance, distDir: string | null, options: WebAppOptions = { demo: false, devMailbox: false }): Promise<void> {
  const built = distDir !== null && existsSync(join(distDir, 'index.html'));
  /** An HTML page of the build: as it is, or read per request (a rebuild must show) and marked. */
  const sendPage = (reply: FastifyReply, file: string): void => {
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
    if (!options.demo) {
      reply.sendFile(file);
      return;
    }
    reply.send(markDemoHtml(readFileSync(join(distDir as string, file), 'utf8'), options));
  };
  if (built && options.demo) {
    // Before the static files' wildcard, so the marked pages win over the files themselves.
    app.get('/', (_request, reply) => {
      sendPage(reply, 'index.html');
    });
    app.get('/index.html', (_request, reply) => {
      sendPage(reply, 'index.html');
    });
    if (existsSync(join(distDir as string, DEVICE_HTML))) {
      app.get(`/${DEVICE_HTML}`, (_request, reply) => {
        sendPage(reply, DEVICE_HTML);
      });
    }
  }
  if (built && existsSync(join(distDir as string, 'assets'))) {
    // Vite's content-hashed files (assets/) never change under one name: cached for a year and
    // never revalidated, so they go without validators (ETag, Last-Modified) or Accept-Ranges,
    // some 100 bytes of headers on each of the requests a page makes (issue 12).
    await app.register(fastifyStatic, {
      root: join(distDir as string, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      preCompressed: true,
      etag: false,
      lastModified: false,
      acceptRanges: false,
      cacheControl: false,
      setHeaders(res) {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  }
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: ['index.html'],
      // The build's .br and .gz copies (scripts/precompress.ts), chosen by Accept-Encoding with
      // Vary: Accept-Encoding; a client that takes neither gets the file as it is.
      preCompressed: true,
      setHeaders(res, path) {
        // Vite puts content-hashed files under assets/: they never change under one name.
        res.header('Cache-Control', path.includes(`${join(distDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (path.endsWith('.webmanifest')) res.header('Content-Type', MANIFEST_TYPE);
      },
    });
  }

  // A plain (non-async) handler: awaiting a reply that streams a file adds listeners per await.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = !WEB_PATHS_UNDER_API.includes(path) && API_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
    const lastSegment = path.slice(path.lastIndexOf('/') + 1);
    if ((request.method === 'GET' || request.method === 'HEAD') && !isApi && !lastSegment.includes('.')) {
      if (!built) {
        reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built: run `npm run build`. The API, token service and push socket are up.');
        return;
      }
      // The companion (DEVICE_COMPANION_PATH) is its own page; everything else is the web app,
      // with the early reads' script on the pages that have them (api/early-read-pages.ts).
      const isCompanion = path === DEVICE_COMPANION_PATH.replace(/\/$/, '') || path.startsWith(DEVICE_COMPANION_PATH);
      const page = isCompanion ? DEVICE_HTML : (EARLY_READ_PAGES as readonly string[]).includes(path) ? EARLY_READ_HTML : 'index.html';
      sendPage(reply, page !== 'index.html' && !existsSync(join(distDir as string, page)) ? 'index.html' : page);
      return;
    }
    reply.code(404).send({ message: 'Not found' });
  });
}
