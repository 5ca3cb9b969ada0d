import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { getVariant } from './variants/index.ts';

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
      name: 'variant-title',
      // The page title before the app starts (no inline script: the CSP forbids it).
      transformIndexHtml: (html) => html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(variant.projectName)}</title>`),
    },
  ],
  define: {
    'import.meta.env.VARIANT': JSON.stringify(variantId),
  },
  server: {
    proxy: {
      '/api': platform,
      '/auth': platform,
      '/dev': platform,
      '/graphql': { target: platform.replace('http', 'ws'), ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: true },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
