/**
 * The active variant's brand at BUILD time (issue 13): its token stylesheet, its logo, favicon and
 * web manifest. Written into the build rather than applied by script at start-up, so the first
 * paint already has the brand's colours (no flash of the default theme) and nothing needs an
 * inline style or script (the CSP forbids both).
 *
 * - `virtual:variant-tokens.css`: the variant's tokens (variants/tokens.ts), imported by the
 *   entries after src/ui/tokens.css, so it lands in the entry stylesheet in <head>;
 * - `virtual:variant-logo`: the URL of the variant's mark (/favicon.svg, variants/assets/<id>.svg), for <Logo />;
 * - /favicon.svg (the same mark) and /manifest.webmanifest, linked from index.html.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { Variant } from './schema.ts';
import { variantTokensCss } from './tokens.ts';

const TOKENS_ID = 'virtual:variant-tokens.css';
const LOGO_ID = 'virtual:variant-logo';
// Vite's CSS pipeline recognises a stylesheet by its extension, so the resolved id keeps `.css`.
const RESOLVED_TOKENS_ID = '\0variant-tokens.css';
const RESOLVED_LOGO_ID = '\0variant-logo';

export const FAVICON_FILE = 'favicon.svg';
export const MANIFEST_FILE = 'manifest.webmanifest';

export function variantMarkPath(variant: Pick<Variant, 'id'>): string {
  return fileURLToPath(new URL(`./assets/${variant.id}.svg`, import.meta.url));
}

export function variantManifest(variant: Pick<Variant, 'projectName' | 'theme' | 'languages'>) {
  return {
    name: variant.projectName,
    short_name: variant.projectName.slice(0, 12),
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: variant.theme.primary,
    background_color: variant.theme.bg,
    lang: variant.languages[0] ?? 'en',
    // SVG only: every browser that installs web apps today takes an SVG icon (sizes "any").
    icons: [{ src: `/${FAVICON_FILE}`, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  };
}

export function variantAssets(variant: Variant): Plugin {
  const markPath = variantMarkPath(variant);
  const manifest = () => `${JSON.stringify(variantManifest(variant), null, 2)}\n`;
  return {
    name: 'variant-assets',
    resolveId(source) {
      if (source === TOKENS_ID) return RESOLVED_TOKENS_ID;
      if (source === LOGO_ID) return RESOLVED_LOGO_ID;
      return null;
    },
    load(id) {
      if (id === RESOLVED_TOKENS_ID) return variantTokensCss(variant.theme);
      // The mark's URL is the favicon's: the browser fetches the file once for the tab and the
      // logo, and no page's JavaScript carries the picture (it went in as a 0.4 kB data URL on the
      // sign-in page, whose budget is 130 kB; issue 12).
      if (id === RESOLVED_LOGO_ID) return `export default ${JSON.stringify(`/${FAVICON_FILE}`)};`;
      return null;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: FAVICON_FILE, source: readFileSync(markPath) });
      this.emitFile({ type: 'asset', fileName: MANIFEST_FILE, source: manifest() });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url === `/${FAVICON_FILE}`) {
          res.setHeader('Content-Type', 'image/svg+xml');
          res.end(readFileSync(markPath));
          return;
        }
        if (req.url === `/${MANIFEST_FILE}`) {
          res.setHeader('Content-Type', 'application/manifest+json');
          res.end(manifest());
          return;
        }
        next();
      });
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html, ctx) {
        // The device companion (device.html) has its own icons and manifest (src/device/manifest.ts).
        if (!/(^|\/)index\.html$/.test(ctx.filename)) return html;
        return [
          { tag: 'link', attrs: { rel: 'icon', href: `/${FAVICON_FILE}`, type: 'image/svg+xml' }, injectTo: 'head' },
          { tag: 'link', attrs: { rel: 'manifest', href: `/${MANIFEST_FILE}` }, injectTo: 'head' },
          { tag: 'meta', attrs: { name: 'theme-color', content: variant.theme.primary }, injectTo: 'head' },
        ];
      },
    },
  };
}
