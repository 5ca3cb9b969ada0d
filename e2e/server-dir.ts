import { fileURLToPath } from 'node:url';

/**
 * Where scripts/e2e.ts builds the platform for the journeys (inside the project, where Node finds
 * node_modules; apart from dist-server/ so a running `npm start` is left alone). SERVER_DIR
 * gives parallel runs in one checkout a build each, as DIST_DIR does for the web app.
 */
export const E2E_SERVER_DIR = process.env.SERVER_DIR ?? fileURLToPath(new URL('../.tmp/e2e-server', import.meta.url));
