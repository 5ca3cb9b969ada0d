/**
 * The pages whose first reads start before the app's bundle has arrived (issue 12; the reads are
 * in src/lib/early-reads.ts), and the page the platform serves for them: index.html with the
 * early reads' script (src/early-start.ts) in its head, made by the build (vite.config.ts
 * earlyStart). Every other page is served index.html as it is, so /login, which most visits open,
 * downloads nothing of it. A host that serves index.html for every page (a provider's own static
 * hosting) loses nothing but the head start.
 */
export const EARLY_READ_PAGES = ['/home'] as const;
export type EarlyReadPage = (typeof EARLY_READ_PAGES)[number];

/** dist/ file name of index.html with the early reads' script */
export const EARLY_READ_HTML = 'index.early.html';
