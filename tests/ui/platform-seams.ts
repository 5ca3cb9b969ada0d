/**
 * Setup of the ui-platform project (vitest.config.ts): component tests that run the REAL platform
 * (PGlite) in their own jsdom process. Two seams of the environment:
 * - Vite rewrites `new URL(path, import.meta.url)` to the dev server's origin in a browser-like
 *   environment (server/app.ts finds its files so): such a URL is mapped back to the project's file.
 * - jsdom's globals replace Uint8Array, so PGlite would refuse the uploaded files' bytes (Node
 *   Buffers) as bytea (`instanceof Uint8Array`): Node's own Uint8Array is put back.
 * A setup file runs before each test file's imports, so both hold when the platform is loaded.
 */
import { vi } from 'vitest';

vi.mock('node:url', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:url')>();
  const fileURLToPath = (u: string | URL) => {
    const href = String(u);
    return href.startsWith('file:') ? real.fileURLToPath(href) : `${process.cwd()}${decodeURIComponent(new real.URL(href).pathname)}`;
  };
  return { ...real, default: { ...real, fileURLToPath }, fileURLToPath };
});

globalThis.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
