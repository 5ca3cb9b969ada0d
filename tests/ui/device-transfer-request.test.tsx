/**
 * The device companion shows a pending transfer's approval request (kind 'transfer') with what the
 * user approves: the amount, the fee and the payee; approving sends the answer for its key.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { fromCallback, fromPromise } from 'xstate';
import type { ApprovalRequest, Device } from '../../api/devices.ts';
import { deviceCompanionMachine, type ConfirmResult, type LoadResult, type SignInResult } from '../../machines/device-companion/device-companion.machine.ts';
import { CompanionView } from '../../src/device/companion-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';

const NOW_MS = Date.parse('2026-11-22T10:00:00Z');
const device: Device = {
  id: 42,
  status: 'approved',
  type: 'android',
  name: 'Pixel',
  location: null,
  lastActivityAt: null,
  createdAt: '2026-11-01T10:00:00Z',
  approveMethodIds: [1, 2],
  hasPushToken: false,
};
const transferRequest: ApprovalRequest = {
  key: 'transfer-key',
  kind: 'transfer',
  ip: '198.51.100.7',
  countryCode: null,
  userAgent: '',
  transfer: { transactionId: 77, amount: '1234.50', currency: 'EUR', fee: '2.57', payeeName: 'Tom Tamm' },
  createdAt: '2026-11-22T09:59:30Z',
  expiresAt: '2026-11-22T10:14:30Z',
};

describe('device companion: a transfer to approve', () => {
  it('shows the amount, the fee and the payee, and answers for its key', async () => {
    const answered: { key: string; result: boolean }[] = [];
    const logic = deviceCompanionMachine.provide({
      actors: {
        signIn: fromPromise(async (): Promise<SignInResult> => ({ ok: true, token: 'device-token' })),
        loadDevice: fromPromise(async (): Promise<LoadResult> => ({ ok: true, login: 'rita@demo.test', device, pending: [transferRequest] })),
        confirmRequest: fromPromise(async ({ input }: { input: { token: string; key: string; result: boolean } }): Promise<ConfirmResult> => {
          answered.push({ key: input.key, result: input.result });
          return { ok: true, recorded: true };
        }),
        listen: fromCallback(() => () => {}),
        renewTimer: fromCallback(() => () => {}),
      },
      actions: { persistLink: () => {}, forgetLink: () => {} },
    });
    render(
      <I18nProvider i18n={i18n}>
        <CompanionView logic={logic} input={{ storedLink: { deviceId: 42, secret: 's' }, hashLink: null, approveKey: null, detectedType: 'android' }} nowMs={() => NOW_MS} />
      </I18nProvider>,
    );
    const card = (await screen.findByRole('heading', { name: 'Payment request' })).closest('li')!;
    const facts = within(card);
    expect(facts.getByText('€1,234.50')).toBeTruthy();
    expect(facts.getByText('€2.57')).toBeTruthy();
    expect(facts.getByText('Tom Tamm')).toBeTruthy();
    // A transfer has no browser of its own to show.
    expect(facts.queryByText('Browser')).toBeNull();
    await userEvent.setup().click(facts.getByRole('button', { name: 'Approve' }));
    await screen.findByText('Approved.');
    expect(answered).toEqual([{ key: 'transfer-key', result: true }]);
  });
});
