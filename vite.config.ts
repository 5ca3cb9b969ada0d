import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { getVariant } from './variants/index.ts';
import { markDemoHtml } from './server/modules/platform/demo-marks.ts';
import { DEVICE_MANIFEST_FILE, DEVICE_MANIFEST_TYPE, deviceManifestJson } from './src/device/manifest.ts';
import { precompressFile } from './scripts/precompress.ts';
import { join } from 'node:path';

// The white-label variant of this build (variants/). An unknown id or invalid data fails here,
// at build time, instead of in the user's browser.
const variantId = process.env.VARIANT ?? 'wallet';
const variant = getVariant(variantId);

const platform = `http://127.0.0.1:${process.env.PLATFORM_PORT ?? '3000'}`;

// Plugin order (STACK.md): router before react, then the Lingui macro through babel, then lingui.
export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: './src/routes', generatedRouteTree: './src/routeTree.gen.ts' }),
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
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
      '/api': platform,
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
    rollupOptions: { input: { main: 'index.html', device: 'device.html' }, output: { chunkFileNames: 'assets/[hash].js' } },
    // A lazy chunk's preload list keeps its stylesheets only. Every route's list of JavaScript
    // chunks sat in the entry chunk that /login loads (1.3 kB of its 160 kB budget, growing
    // with every route); without them a route's own imports are fetched when its chunk is parsed,
    // and the router's intent preloading (src/app/router.ts) starts that on hover or focus.
    modulePreload: { resolveDependencies: (_file, deps) => deps.filter((dep) => dep.endsWith('.css')) },
  },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
