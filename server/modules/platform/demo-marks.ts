/**
 * Demo mode reaches the web app as meta elements in the HTML it is served in (read by
 * src/lib/demo-mode.ts before the first render): no request of its own, no name in the spec's
 * method or path tables, and the pages say "Demo" from their first paint. The platform writes them
 * (static.ts); under `npm run dev` Vite does (vite.config.ts). No imports: the Vite config loads it.
 */
export const DEMO_META = '<meta name="wlb-demo" content="1">';
export const DEV_MAILBOX_META = '<meta name="wlb-dev-mailbox" content="/dev/mailbox">';

/** The marks of a page (empty outside demo mode), inserted before </head>. */
export function markDemoHtml(html: string, { demo, devMailbox }: { demo: boolean; devMailbox: boolean }): string {
  if (!demo) return html;
  return html.replace('</head>', `${DEMO_META}${devMailbox ? DEV_MAILBOX_META : ''}</head>`);
}
