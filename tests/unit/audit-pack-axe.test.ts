// @vitest-environment jsdom
/**
 * The audit pack's pages pass axe (WCAG 2.2 AA tags; colour contrast needs a browser, see
 * tests/ui/axe.ts): the index and three machine pages (one template; axe takes seconds a page in
 * jsdom), a nested parallel chart among them.
 */
import { describe, it } from 'vitest';
import { buildMachinePages } from '../../scripts/audit-pack.ts';
import { renderIndex, renderMachinePage } from '../../scripts/audit-pack/pages.ts';
import { expectNoAxeViolations } from '../ui/axe.ts';

function show(html: string): void {
  document.open();
  document.write(html);
  document.close();
}

describe('audit pack pages: axe', () => {
  it('the index and the machine pages have no axe violations', async () => {
    const pages = await buildMachinePages();
    show(renderIndex(pages, '2026-01-01T00:00:00Z'));
    await expectNoAxeViolations('index.html', document.documentElement);
    for (const page of pages.filter((p) => ['transfer', 'verification-status', 'confirm-action'].includes(p.file))) {
      show(renderMachinePage(page));
      await expectNoAxeViolations(`${page.file}.html`, document.documentElement);
    }
  }, 180_000);
});
