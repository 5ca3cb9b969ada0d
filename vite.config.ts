import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { getVariant } from './variants/index.ts';
import { variantAssets } from './variants/vite-plugin.ts';
import { markDemoHtml } from './server/modules/platform/demo-marks.ts';
import { DEVICE_MANIFEST_FILE, DEVICE_MANIFEST_TYPE, deviceManifestJson } from './src/device/manifest.ts';
import { precompressFile } from './scripts/precompress.ts';
import { EARLY_READ_HTML } from './api/early-read-pages.ts';
import { stripMachineDocs } from './scripts/strip-machine-docs.ts';
import { join } from 'node:path';

// The white-label variant of this build (variants/). An unknown id or invalid data fails here,
// at build time, instead of in the user's browser.
const variantId = process.env.VARIANT ?? 'wallet';
const variant = getVariant(variantId);

const platform = `http://127.0.0.1:${process.env.PLATFORM_PORT ?? '3000'}`;

/**
 * The chunks of the first pages (issue 12: /login in at most 12 requests before it is interactive,
 * /home fast on a phone). Left to the automatic splitting, every set of routes sharing a module
 * made a chunk of its own: /login fetched some thirty and /home some fifty, each request costing
 * about 1 kB of headers and a place in a waterfall of imports. Instead:
 * - "shared": what /login needs that the device companion (the second entry) needs too (React,
 *   XState...);
 * - "login": the rest of what /login needs: the static imports of the app's entry and of the lazy
 *   route components /login renders;
 * - "home": what /home adds (its layouts, its view, TanStack Query), except what the device
 *   companion also reaches (left to the automatic splitting).
 * The catalogs stay apart (one language is loaded, src/lib/i18n.ts), and so does everything else
 * lazy: other routes load their own chunks and share "home"'s.
 */
const routeComponent = (path: string) => new RegExp(`[\\\\/]src[\\\\/]routes[\\\\/]${path.replace(/[./]/g, (c) => (c === '.' ? '\\.' : '[\\\\/]'))}\\.tsx\\?tsr-split=component$`);
const firstPages = criticalPathChunks({
  entry: 'index.html',
  other: 'device.html',
  pages: [
    {
      name: 'login',
      lazy: [routeComponent('_external'), routeComponent('_external/login')],
      // TanStack Query is reached through the re-exports of @tanstack/react-query, whose context
      // /login provides empty; only the routes that read through it load it (app-query-client.ts).
      exclude: /\.po$|[\\/]node_modules[\\/]@tanstack[\\/](query-core[\\/]|react-query[\\/]build[\\/]modern[\\/]index\.js$)/,
    },
    {
      name: 'home',
      // its layouts and view, the query client, and the methods' registry (src/lib/request.ts
      // loads it with the first call)
      lazy: [
        routeComponent('_guarded'),
        routeComponent('_guarded/_main'),
        routeComponent('_guarded/_main/home'),
        /[\\/]src[\\/]app[\\/]query-client\.ts$/,
        /[\\/]api[\\/]registry\.ts$/,
      ],
      exclude: /\.po$/,
    },
  ],
});

// Plugin order (STACK.md): router before react, then the Lingui macro through babel, then lingui.
export default defineConfig({
  plugins: [
    firstPages.plugin,
    earlyStart(),
    stripMachineDocs(),
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: './src/routes', generatedRouteTree: './src/routeTree.gen.ts' }),
    react(),
    // The Lingui macros through babel, in the files that import them only (97 of 434): babel parsed
    // and printed every module before, the server's and the tests' too (issue 12: the test run's
    // transform time 101 s, 64 s with the filter).
    babel({
      presets: [
        defineRolldownBabelPreset({
          preset: { plugins: ['@lingui/babel-plugin-lingui-macro'] },
          rolldown: { filter: { code: /@lingui\/(?:core|react)\/macro/ } },
        }),
      ],
    }),
    lingui(),
    {
      // A web build carries its own variant only: variants/inputs.ts (every variant, for the
      // platform and the tests) becomes the active variant's entry.
      name: 'active-variant-only',
      apply: 'build',
      enforce: 'pre',
      resolveId(source, importer) {
        if (source === './inputs.ts' && importer && /[\\/]variants[\\/]index\.ts$/.test(importer)) return '\0variant-inputs';
        return null;
      },
      load(id) {
        if (id !== '\0variant-inputs') return null;
        const exportName = variantId.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
        const file = fileURLToPath(new URL(`./variants/${variantId}.ts`, import.meta.url));
        return `import { ${exportName} as input } from ${JSON.stringify(file)};\nexport const variantInputs = { ${JSON.stringify(variantId)}: input };`;
      },
    },
    {
      // Brotli and gzip copies of every text file of the build, served by the platform as they are
      // (scripts/precompress.ts; @fastify/static preCompressed in server/modules/platform/static.ts).
      name: 'precompress',
      apply: 'build',
      writeBundle(output, bundle) {
        for (const fileName of Object.keys(bundle)) precompressFile(join(output.dir ?? 'dist', fileName));
      },
    },
    // The variant's tokens, logo, favicon and manifest, written into the build (no flash of default colours).
    variantAssets(variant),
    {
      name: 'variant-title',
      // The page title before the app starts (no inline script: the CSP forbids it).
      transformIndexHtml: (html) => html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(variant.projectName)}</title>`),
    },
    {
      // `npm run dev`: Vite serves the pages, so it marks them as the platform would in demo mode
      // (scripts/dev.ts says whether the platform it starts is in demo mode).
      name: 'demo-marks',
      apply: 'serve',
      transformIndexHtml: (html) => markDemoHtml(html, { demo: process.env.PLATFORM_DEMO === 'true', devMailbox: process.env.PLATFORM_DEV_MAILBOX === 'true' }),
    },
    {
      // The device companion (device.html, src/device/): its manifest carries the variant's name and
      // colours; in development /device/ answers device.html as the platform does once built.
      name: 'device-companion',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: DEVICE_MANIFEST_FILE, source: deviceManifestJson(variant) });
      },
      configureServer(server) {
        server.middlewares.use((req, res, next) => {
          if (req.url === `/${DEVICE_MANIFEST_FILE}`) {
            res.setHeader('Content-Type', DEVICE_MANIFEST_TYPE);
            res.end(deviceManifestJson(variant));
            return;
          }
          const path = req.url?.split('?')[0] ?? '';
          if (path === '/device' || (path.startsWith('/device/') && !path.slice(path.lastIndexOf('/')).includes('.'))) req.url = '/device.html';
          next();
        });
      },
    },
  ],
  define: {
    'import.meta.env.VARIANT': JSON.stringify(variantId),
  },
  server: {
    proxy: {
      // the platform's API is under /api/v1 (a bare /api would also take the app's own source
      // modules in api/, which Vite serves at /api/*.ts)
      '/api/v1': platform,
      // GET /auth/sei is the app's single sign-on page; every other /auth path is the token service.
      '/auth': { target: platform, bypass: (req) => (req.method === 'GET' && /^\/auth\/sei(\?|$)/.test(req.url ?? '') ? req.url : undefined) },
      '/dev': platform,
      '/graphql': { target: platform.replace('http', 'ws'), ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Two entries: the web app and the device companion (its own bundle, so the app's does not grow).
    // Shared chunks are named by their hash alone: every import statement and preload list names
    // them, and /login loads some thirty (0.8 kB of its budget went to names; the source maps keep
    // the module paths for debugging).
    rollupOptions: {
      input: { main: 'index.html', device: 'device.html', early: 'src/early-start.ts' },
      output: {
        chunkFileNames: 'assets/[hash].js',
        // /login's code in two chunks instead of some thirty, /home's in one more (firstPages above).
        // The early reads (src/lib/early-reads.ts) and their start (src/early-start.ts, the third
        // entry) in one chunk of their own: index.early.html loads it beside the app's bundle,
        // the request wrapper imports it with "home", and /login never.
        codeSplitting: { groups: [{ name: 'early-reads', test: /[\\/]src[\\/](lib[\\/]early-reads|early-start)\.ts$/, priority: 100 }, ...firstPages.groups] },
      },
    },
    // The page's own preload list (hostType 'html') names the entry's chunks, fetched at once
    // with the entry instead of after it is parsed. A lazy chunk's preload list keeps its
    // stylesheets only: every route's list of JavaScript chunks sat in the entry chunk that /login
    // loads (1.3 kB, growing with every route); without them a route's own imports are fetched
    // when its chunk is parsed, and the router's intent preloading (src/app/router.ts) starts that
    // on hover or focus.
    // No polyfill (0.5 kB on /login): every browser of the build target but Safari 16 follows
    // modulepreload links itself; Safari 16 fetches such a chunk when it meets its import instead.
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : deps.filter((dep) => dep.endsWith('.css'))) },
  },
});

/**
 * index.early.html (api/early-read-pages.ts): index.html with the early reads' start
 * (src/early-start.ts, the build's third entry) in its head as an `async` module script, fetched
 * beside the app's bundle and run as soon as it has arrived, whatever the bundle is still doing
 * (issue 12: /home's reads left only after some 170 kB of the app had arrived and run). The
 * development server does without it (the app reads as it always does).
 */
function earlyStart(): Plugin {
  return {
    name: 'early-start',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        const chunk = Object.values(bundle).find((item) => item.type === 'chunk' && item.isEntry && item.name === 'early');
        if (!page || page.type !== 'asset' || !chunk || chunk.type !== 'chunk') throw new Error('early-start: index.html or the chunk of src/early-start.ts is missing');
        if (chunk.imports.length > 0) throw new Error(`early-start: src/early-start.ts must import nothing the app's bundle has (it imports ${chunk.imports.join(', ')})`);
        const html = String(page.source);
        const script = `<script type="module" async crossorigin src="/${chunk.fileName}"></script>`;
        if (!html.includes('<head>') || !html.includes(EMPTY_ROOT)) throw new Error(`early-start: index.html has no <head> or no ${EMPTY_ROOT}`);
        const source = html.replace('<head>', `<head>\n    ${script}`).replace(EMPTY_ROOT, `<div id="root">${bootShell(variant.projectName)}</div>`);
        this.emitFile({ type: 'asset', fileName: EARLY_READ_HTML, source });
      },
    },
  };
}

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The signed-in shell's top bar, its sidebar's column (on a laptop) and its main area as the app
 * draws them (src/app/shell: .shell, .shell-topbar, .main-nav, the Brand with the variant's Logo,
 * .shell-main, styled by the stylesheet the page loads first), in the page the platform serves for
 * /home: a phone shows the brand where it stays instead of a blank page until the app has arrived
 * (issue 12: /home painted nothing for 2.4 s on Lighthouse's phone). The main area's heading is
 * empty here; the early script (src/early-start.ts) writes in it the page's heading as the app
 * last drew it in this tab (the greeting), so the page's largest text does not wait for the app's
 * whole script. React replaces it all on its first render. Hidden from assistive technology: it
 * says nothing the app will not say, and the app's own page is announced when it comes. Not shown
 * in demo mode, where the app's Demo bar above the top bar would move it (shell.css).
 * e2e/sign-in.spec.ts checks that the brand and the heading do not move when the app takes over
 * (the menu button's place is kept on a phone).
 */
function bootShell(projectName: string): string {
  const name = escapeHtml(projectName);
  return `<div class="shell boot-shell" aria-hidden="true"><header class="shell-topbar"><span class="shell-menu-button"></span><span class="brand"><span class="logo logo-md"><img class="logo-mark" src="/favicon.svg" alt="" width="32" height="32"><span class="logo-name">${name}</span></span></span></header><div class="main-nav" data-open="false"></div><main class="shell-main"><h1 class="step-heading" data-boot-heading></h1></main></div>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Chunk groups for the first pages (see firstPages): for each page in turn, the modules statically
 * reachable from `entry` (the first page only) and from the lazy modules matching its `lazy`, less
 * what earlier pages took; what the `other` entry reaches goes in "shared" for the first page and
 * is left out of the others. A module matching a page's `exclude` is not followed. The sets are
 * computed once the module graph is complete (buildEnd), before the chunks are made.
 */
function criticalPathChunks(options: { entry: string; other: string; pages: { name: string; lazy: RegExp[]; exclude: RegExp }[] }) {
  const shared = new Set<string>();
  const byPage = options.pages.map(() => new Set<string>());
  const plugin: Plugin = {
    name: 'critical-path-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const closure = (roots: string[], exclude?: RegExp) => {
        const seen = new Set<string>();
        const stack = [...roots];
        while (stack.length > 0) {
          const id = stack.pop() as string;
          if (seen.has(id) || exclude?.test(id)) continue;
          seen.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const entryId = (file: string) => {
        const id = ids.find((candidate) => candidate === fileURLToPath(new URL(`./${file}`, import.meta.url)));
        if (!id) throw new Error(`critical-path-chunks: no module for ${file}`);
        return id;
      };
      const entry = entryId(options.entry);
      const other = entryId(options.other);
      const otherNeeds = closure([other]);
      // The modules the entries run at their top (the app's start, src/main.tsx, imported by
      // index.html) stay in their entry chunks: in a group chunk that the device companion also
      // loads, the whole web app started inside the companion's page (and rewrote its URL).
      const starts = [entry, other].flatMap((id) => this.getModuleInfo(id)?.importedIds ?? []).filter((id) => /[\\/]src[\\/](device[\\/])?main\.tsx$/.test(id));
      if (starts.length !== 2) throw new Error(`critical-path-chunks: ${starts.length} of 2 start modules found`);
      const taken = new Set<string>([entry, other, ...starts]);
      shared.clear();
      options.pages.forEach((page, index) => {
        const lazy = ids.filter((id) => page.lazy.some((pattern) => pattern.test(id)));
        if (lazy.length !== page.lazy.length) throw new Error(`critical-path-chunks: ${lazy.length} of ${page.lazy.length} lazy modules of ${page.name} found`);
        const own = byPage[index] as Set<string>;
        own.clear();
        for (const id of closure(index === 0 ? [entry, ...lazy] : lazy, page.exclude)) {
          if (taken.has(id)) continue;
          if (otherNeeds.has(id)) {
            if (index === 0) shared.add(id);
            continue;
          }
          own.add(id);
        }
        for (const id of [...shared, ...own]) taken.add(id);
      });
    },
  };
  return {
    plugin,
    groups: [
      { name: 'shared', test: (id: string) => shared.has(id), priority: options.pages.length + 1 },
      ...options.pages.map((page, index) => ({ name: page.name, test: (id: string) => (byPage[index] as Set<string>).has(id), priority: options.pages.length - index })),
    ],
  };
}
