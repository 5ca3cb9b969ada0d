/**
 * Demo mode, as the platform marks the HTML it serves (server/modules/platform/static.ts: a
 * `wlb-demo` meta element, and `wlb-dev-mailbox` with the mailbox's path when it is on). Read from
 * the document, so the pages say "Demo" from their first render without a request of their own.
 */
export interface DemoMarks {
  demo: boolean;
  /** the development mailbox's path; null when it is off */
  mailboxPath: string | null;
}

export function readDemoMarks(doc: Document = document): DemoMarks {
  const demo = doc.querySelector('meta[name="wlb-demo"]')?.getAttribute('content') === '1';
  const mailbox = doc.querySelector('meta[name="wlb-dev-mailbox"]')?.getAttribute('content') ?? null;
  // Only a path of this origin: the page links to it.
  return { demo, mailboxPath: demo && mailbox && mailbox.startsWith('/') && !mailbox.startsWith('//') ? mailbox : null };
}
