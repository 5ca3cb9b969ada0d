/**
 * A DOM for the whole app in a node-environment test file, so the platform (server/, PGlite) is
 * transformed as node code in the same process: under vitest's jsdom environment every module is
 * transformed for the browser (`new URL(path, import.meta.url)` becomes an http URL and
 * server/app.ts cannot find its files). Imported first by the test file.
 *
 * jsdom's globals include its typed arrays and text codecs; the platform's database driver checks
 * `instanceof Uint8Array` with Node's (a file's bytes), so Node's are put back.
 *
 * Limitation: the ui project's setup file loads React DOM before this DOM exists, so React DOM
 * takes the browser without `input` events (it would attach an IE-only listener when a text field
 * takes focus): tests in such a file click and choose, they do not type.
 */
import { builtinEnvironments } from 'vitest/runtime';

const nodeBinary = { Uint8Array, ArrayBuffer, TextEncoder, TextDecoder };
const jsdom = await builtinEnvironments.jsdom.setup(globalThis, { jsdom: { url: 'http://localhost:3000/' } });
for (const [key, value] of Object.entries(nodeBinary)) Object.defineProperty(globalThis, key, { value, writable: true, configurable: true });

export const teardownDom = () => jsdom.teardown(globalThis);
