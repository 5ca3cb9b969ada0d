/**
 * A card's secret on /card/{accountId}/pin/ (src/features/cards/secret-view.tsx) with the chart's
 * real 30 seconds on fake timers: the PIN is on the page with its countdown, still there at 29 s,
 * and gone from the DOM at 30 s, the live region then saying so; leaving the page while it is shown
 * leaves no secret in the actor's last snapshot (the one a Strict Mode remount would restart from).
 * The model test (tests/model/card-secret.model.test.tsx) covers every transition with the delays
 * sent as events; this one proves the delays themselves.
 *
 * Proof it can fail (2026-11-27): I made the chart's visibleFor delay 60 s and took out the
 * panel's hide-on-leave: the first test went red (the PIN still on the page at 30 s), and the
 * second (the last snapshot still held it); restored since.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { fromPromise, type InspectionEvent } from 'xstate';
import { cardSecretMachine, type GetSecretResult, type RevealKind, type ShowResult } from '../../machines/card-secret/card-secret.machine.ts';
import { CardSecretPanel } from '../../src/features/cards/secret-view.tsx';
import { setSharedInspect } from '../../src/lib/actors.ts';
import { i18n } from '../../src/lib/i18n.ts';

const PIN = '7294';

function logic() {
  return cardSecretMachine.provide({
    actors: {
      showSecret: fromPromise<ShowResult, { accountId: number; reveal: RevealKind }>(async () => ({
        ok: true,
        operation: { operationId: 900, approveType: 'otp', approvalSentTo: null, expiresAt: new Date(Date.now() + 300_000).toISOString() },
      })),
      getSecret: fromPromise<GetSecretResult, { accountId: number; operationId: number; approvalCode: string }>(async () => ({
        ok: true,
        secret: { pinCode: PIN, cardNumber: null, cvv: null, cardExpiryMonth: null, cardExpiryYear: null },
        visibleForMs: 30_000,
      })),
    },
  });
}

const settle = () => act(async () => vi.advanceTimersByTimeAsync(0));
const advance = (ms: number) => act(async () => vi.advanceTimersByTimeAsync(ms));

async function showPin() {
  render(
    <I18nProvider i18n={i18n}>
      <CardSecretPanel accountId={41} logic={logic()} />
    </I18nProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Show PIN' }));
  await settle();
  fireEvent.change(screen.getByLabelText('Code'), { target: { value: '123456' } });
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  await settle();
}

afterEach(() => {
  setSharedInspect(undefined);
  cleanup();
  vi.useRealTimers();
});

describe('card secret view', () => {
  it('shows the PIN for 30 seconds, counting down, then takes it out of the page and says so', async () => {
    vi.useFakeTimers();
    await showPin();
    expect(screen.getByText(PIN)).toBeTruthy();
    expect(screen.getByText('Hidden again in 30 s')).toBeTruthy();
    const live = document.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('');

    await advance(29_000);
    expect(screen.getByText(PIN)).toBeTruthy();
    expect(screen.getByText('Hidden again in 1 s')).toBeTruthy();

    await advance(1_000);
    expect(document.body.textContent).not.toContain(PIN);
    expect(live.textContent).toBe('The PIN is hidden again.');
    expect(screen.getByRole('button', { name: 'Show PIN' })).toBeTruthy();
  });

  it('leaving the page while the PIN is shown leaves it in no snapshot of the actor', async () => {
    vi.useFakeTimers();
    const snapshots: { context?: { secret?: unknown; accountId?: number } }[] = [];
    setSharedInspect((e: InspectionEvent) => {
      if (e.type === '@xstate.snapshot') snapshots.push(e.snapshot as never);
    });
    await showPin();
    expect(screen.getByText(PIN)).toBeTruthy();
    expect(snapshots.some((s) => s.context?.secret)).toBe(true);
    cleanup();
    const last = snapshots.filter((s) => s.context?.accountId === 41).at(-1);
    expect(last?.context?.secret).toBeNull();
  });
});
