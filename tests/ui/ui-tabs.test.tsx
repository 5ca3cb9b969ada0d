/** Tabs (src/ui/tabs.tsx): the WAI-ARIA tabs pattern with arrow keys, Home and End. */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tabs } from '../../src/ui/tabs.tsx';
import { expectNoAxeViolations } from './axe.ts';

const tabs = [
  { id: 'all', label: 'All', content: <p>Every transaction</p> },
  { id: 'in', label: 'Money in', content: <p>Only incoming</p> },
  { id: 'out', label: 'Money out', content: <p>Only outgoing</p> },
];

describe('Tabs', () => {
  it('one tab stop; arrows, Home and End move and show the panel; wraps at the ends', async () => {
    const user = userEvent.setup();
    const selected: string[] = [];
    render(
      <>
        <button type="button">Before</button>
        <Tabs label="Filter" tabs={tabs} onSelect={(id) => selected.push(id)} />
      </>,
    );
    expect(screen.getByRole('tablist', { name: 'Filter' })).toBeTruthy();
    const all = screen.getByRole('tab', { name: 'All' });
    expect(all.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'All' }).textContent).toBe('Every transaction');
    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(all);
    await user.keyboard('{ArrowRight}');
    const moneyIn = screen.getByRole('tab', { name: 'Money in' });
    expect(document.activeElement).toBe(moneyIn);
    expect(moneyIn.getAttribute('aria-selected')).toBe('true');
    expect(all.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByRole('tabpanel', { name: 'Money in' }).textContent).toBe('Only incoming');
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Money out' }));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(all);
    await user.keyboard('{ArrowLeft}');
    await user.keyboard('{Home}');
    expect(selected).toEqual(['in', 'out', 'all', 'out', 'all']);
    // Tab leaves the tab list for the shown panel
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel', { name: 'All' }));
    await user.click(screen.getByRole('tab', { name: 'Money out' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('Only outgoing');
    await expectNoAxeViolations('Tabs');
  });
});
