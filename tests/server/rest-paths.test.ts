/**
 * The REST paths of ../shared/spec/rest-paths.tsv (copied to docs/spec/) for the areas built so
 * far (token service, single sign-on, identity and verification): each is served, under the
 * spec's verb and path, at the root or under the versioned base (api/http.ts API_VERSION_PATH).
 * The other areas (merchant, contracts, support, desk) come with their issues: add them to
 * BUILT_AREAS then.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import { createTestApp, type TestApp } from './harness.ts';

const BUILT_AREAS = new Set(['token', 'sso', 'identity', 'contracts', 'support', 'desk']);
const SPEC = fileURLToPath(new URL('../../docs/spec/rest-paths.tsv', import.meta.url));

interface RestPath {
  area: string;
  verb: string;
  path: string;
}

function readPaths(): RestPath[] {
  return readFileSync(SPEC, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .slice(1)
    .map((line) => {
      const [area, , verb, path] = line.split('\t');
      return { area: area!, verb: verb!, path: path!.trim() };
    });
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
});
afterAll(async () => {
  await t?.close();
});

/**
 * Every served route as `VERB /path` with its parameters written `:p` (the names do not matter),
 * read from Fastify's route tree: a line is `├── /segment (GET, POST)` indented 4 characters a
 * level, a child's path continuing its parent's.
 */
function servedRoutes(): Set<string> {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!m) continue;
    const depth = [...m[1]!].length / 4;
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${m[2]!}`;
    stack.push(path);
    for (const verb of m[3]?.split(', ') ?? []) out.add(`${verb} ${path.replace(/:[A-Za-z]+/g, ':p')}`);
  }
  return out;
}

describe('rest-paths.tsv', () => {
  const rows = readPaths().filter((r) => BUILT_AREAS.has(r.area));

  it('reads the built areas\' paths', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
  });

  it('serves every path of the built areas under the spec\'s verb', () => {
    const routes = servedRoutes();
    expect(routes.size).toBeGreaterThan(20);
    const missing = rows.filter((r) => {
      const path = (r.path.startsWith('/') ? r.path : `/${r.path}`).replace(/\{[^}]+\}/g, ':p');
      return !routes.has(`${r.verb} ${path}`) && !routes.has(`${r.verb} ${API_VERSION_PATH}${path}`);
    });
    expect(missing.map((r) => `${r.verb} ${r.path}`)).toEqual([]);
  });
});
