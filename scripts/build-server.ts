/**
 * `npm run build:server`: the platform as built JavaScript, so production runs `node
 * dist-server/main.js` instead of compiling TypeScript at start through tsx (whose loader, esbuild
 * service and per-file source maps stay resident in the process).
 *
 * esbuild (the one tsx ships) bundles server/main.ts and every source file it imports into
 * dist-server/main.js; the packages under node_modules stay imports (their JSON excepted), so
 * native (@node-rs/argon2) and wasm (PGlite) packages load from node_modules as under tsx. The
 * migrations are copied beside the bundle: server/db/open.ts finds them next to its own module
 * (`./migrations`), which in the bundle is dist-server/. The web app stays in dist/ (app.ts's
 * `../dist`, the same from server/ and from dist-server/).
 */
import { build, type Plugin } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Node's options for the built server, in `npm start` (package.json) and in the benches alike.
 * --max-semi-space-size=8: V8's young generation grows to 16 MB semi-spaces by default (three of
 * them resident once grown: the start's migrations and seeding already grow them), about 12 MB of
 * the platform's idle memory (121 -> 109 MB on PostgreSQL). 4 saved 4 MB more but cost about 4% of
 * getCustomerInfo's CPU in scavenges (bench/profile-summary.ts on the platform under load).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=8'];

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Packages stay imports, except their JSON files (country names): esbuild would drop the import
 * attribute (`with { type: 'json' }`) that Node requires of a JSON import, so those are bundled.
 */
const packagesExternal: Plugin = {
  name: 'packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.endsWith('.json') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Builds into `outdir` (dist-server/ by default); it must lie inside the project, where Node finds
 * node_modules for the bundle's package imports.
 */
export async function buildServer(outdir = `${root}dist-server`): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    outfile: `${outdir}/main.js`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [packagesExternal],
    // Stack traces name the source files (run with --enable-source-maps to map them).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    legalComments: 'none',
  });
  if (result.errors.length > 0) throw new Error('the server build failed');
  cpSync(`${root}server/db/migrations`, `${outdir}/migrations`, { recursive: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildServer();
  console.log('dist-server/main.js built (run it with `node dist-server/main.js`)');
}
