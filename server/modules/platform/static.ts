/**
 * Serves the built web app (dist/) with a history fallback: a GET of a path that is neither a
 * file nor an API path answers index.html, so deep links reach the client router.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = ['/api/', '/auth/', '/graphql', '/dev/'];

export async function serveWebApp(app: FastifyInstance, distDir: string | null): Promise<void> {
  const built = distDir !== null && existsSync(join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: ['index.html'],
      setHeaders(res, path) {
        // Vite puts content-hashed files under assets/: they never change under one name.
        res.header('Cache-Control', path.includes(`${join(distDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // A plain (non-async) handler: awaiting a reply that streams a file adds listeners per await.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
    const lastSegment = path.slice(path.lastIndexOf('/') + 1);
    if ((request.method === 'GET' || request.method === 'HEAD') && !isApi && !lastSegment.includes('.')) {
      if (!built) {
        reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built: run `npm run build`. The API, token service and push socket are up.');
        return;
      }
      reply.header('Cache-Control', 'no-cache');
      reply.type('text/html; charset=utf-8').sendFile('index.html');
      return;
    }
    reply.code(404).send({ message: 'Not found' });
  });
}
