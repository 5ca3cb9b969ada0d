/**
 * axe (WCAG 2.2 AA tags) on the rendered document, for UI tests in jsdom: no layout there, so
 * colour contrast and target sizes are left to the e2e journeys in Chromium.
 */
import { expect } from 'vitest';

export async function expectNoAxeViolations(where: string, root: Element = document.body): Promise<void> {
  const { default: axe } = await import('axe-core');
  const results = await axe.run(root, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    rules: { 'color-contrast': { enabled: false }, 'target-size': { enabled: false } },
  });
  const summary = results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
  expect(summary, `axe violations in ${where}`).toEqual([]);
}
