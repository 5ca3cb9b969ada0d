/**
 * The design system's display pieces: Skeleton (decorative blocks, a "Loading" status), EmptyState,
 * Badge, Alert, ButtonGroup, Card, the icons (decorative) and the Logo (the project name).
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { i18n } from '../../src/lib/i18n.ts';
import { activeVariant } from '../../variants/index.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { EmptyState } from '../../src/ui/empty-state.tsx';
import { Badge } from '../../src/ui/badge.tsx';
import { Alert } from '../../src/ui/alert.tsx';
import { Button, ButtonGroup } from '../../src/ui/button.tsx';
import { Card } from '../../src/ui/card.tsx';
import { Logo } from '../../src/ui/logo.tsx';
import { HistoryIcon, SendIcon } from '../../src/ui/icons.tsx';
import { expectNoAxeViolations } from './axe.ts';

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);

describe('display components', () => {
  it('Skeleton: the blocks are hidden from assistive technology, a status says Loading', () => {
    const { container } = wrap(<Skeleton lines={4} />);
    expect(screen.getByRole('status').textContent).toBe('Loading');
    const blocks = container.querySelectorAll('.skeleton-block');
    expect(blocks).toHaveLength(4);
    expect([...blocks].every((b) => b.getAttribute('aria-hidden') === 'true')).toBe(true);
    wrap(<Skeleton shape="card" label="Loading your accounts" />);
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual(['Loading', 'Loading your accounts']);
  });

  it('EmptyState: a heading, its text and the next step', async () => {
    wrap(<EmptyState icon={HistoryIcon} title="No transactions yet" text="Money you send or receive shows here." action={<Button>Add money</Button>} />);
    expect(screen.getByRole('heading', { level: 2, name: 'No transactions yet' })).toBeTruthy();
    expect(screen.getByText('Money you send or receive shows here.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add money' })).toBeTruthy();
    await expectNoAxeViolations('EmptyState');
  });

  it('Badge and Alert carry their tone; an error alert is announced at once', () => {
    wrap(
      <>
        <Badge tone="warning">Pending</Badge>
        <Alert tone="error" title="Not sent">The amount is above your balance.</Alert>
        <Alert tone="success">Saved.</Alert>
      </>,
    );
    expect(screen.getByText('Pending').className).toBe('badge badge-warning');
    expect(screen.getByRole('alert').textContent).toBe('Not sentThe amount is above your balance.');
    expect(screen.getByRole('status').textContent).toBe('Saved.');
  });

  it('ButtonGroup spaces its buttons (a group when labelled); Button has a danger variant', () => {
    wrap(
      <ButtonGroup label="Transfer actions" align="end">
        <Button variant="danger">Cancel the transfer</Button>
        <Button variant="secondary">Back</Button>
      </ButtonGroup>,
    );
    const group = screen.getByRole('group', { name: 'Transfer actions' });
    expect(group.className).toBe('btn-group btn-group-end');
    expect(screen.getByRole('button', { name: 'Cancel the transfer' }).className).toBe('btn btn-danger');
  });

  it('Card with a heading; icons are decorative', async () => {
    const { container } = wrap(
      <Card title="Accounts" as="section">
        <Button>
          <SendIcon /> Send
        </Button>
      </Card>,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Accounts' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
    expect(svg?.getAttribute('focusable')).toBe('false');
    await expectNoAxeViolations('Card');
  });

  it('Logo: the variant’s mark with the project name as its accessible name', () => {
    const { container } = wrap(<Logo />);
    const logo = screen.getByRole('img', { name: activeVariant.projectName });
    expect(logo.textContent).toBe(activeVariant.projectName);
    const mark = container.querySelector('img');
    expect(mark?.getAttribute('alt')).toBe('');
    expect(mark?.getAttribute('src')).toMatch(/^\/favicon\.svg$|wallet\.svg|^data:image\/svg\+xml/);
    wrap(<Logo showName={false} />);
    expect(screen.getAllByRole('img', { name: activeVariant.projectName })).toHaveLength(2);
  });
});
