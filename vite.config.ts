import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

const platform = `http://127.0.0.1:${process.env.PLATFORM_PORT ?? '3000'}`;

// Plugin order (STACK.md): router before react, then the Lingui macro through babel, then lingui.
export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: './src/routes', generatedRouteTree: './src/routeTree.gen.ts' }),
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
  ],
  define: {
    'import.meta.env.VARIANT': JSON.stringify(process.env.VARIANT ?? 'wallet'),
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
