/**
 * /confirm-card/{cardId}'s view (src/features/cards/confirm-view.tsx): each requirement met or not,
 * with the way to meet the unmet ones (the history, the verification page, the profile's
 * addresses); Confirm offered only when the platform says canConfirm, then cardConfirm called for
 * this card and the card confirmed; a refusal shown with the platform's words; a card that waits
 * for no confirmation says so. Only fetch is replaced (the platform's answers).
 *
 * Proof it can fail (2026-11-27): I made the Confirm button enabled whatever canConfirm said once:
 * the "nothing to confirm until every requirement is met" test went red; restored since.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfirmCardView } from '../../src/features/cards/confirm-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { setFetchForTests } from '../../src/lib/request.ts';

type Requirements = { accountStatusId: number; requirements: { code: string; met: boolean }[]; canConfirm: boolean };
let asked: { name: string; body: Record<string, unknown> }[];

/** The platform answering the requirements as given, and cardConfirm with `confirm` (a success or a refusal). */
function platform(requirements: Requirements, confirm: Record<string, unknown> = { responseCode: '00', accountStatusId: 0 }) {
  asked = [];
  setFetchForTests(async (_input, init) => {
    const { method: name, ...body } = JSON.parse(String(init?.body ?? '{}')) as { method: string } & Record<string, unknown>;
    asked.push({ name, body });
    const answer = name === 'cardConfirmRequirements' ? { responseCode: '00', accountId: 900, ...requirements } : name === 'cardConfirm' ? confirm : { responseCode: '00' };
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}
afterEach(() => setFetchForTests(null));

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ConfirmCardView actingCustomerId={7} cardId={900} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const items = async () => {
  const list = await screen.findByRole('list');
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
};

describe('confirming a card', () => {
  it('nothing to confirm until every requirement is met: each unmet one says how to meet it', async () => {
    platform({
      accountStatusId: 23,
      canConfirm: false,
      requirements: [
        { code: 'FEE_PAID', met: true },
        { code: 'IDENTITY_VERIFIED', met: false },
        { code: 'ADDRESS_CONFIRMED', met: false },
      ],
    });
    show();
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirm your card' })).toBeTruthy();
    expect(await items()).toEqual([
      "Done The card's fees are paid.",
      'To do Your identity is not verified yet. Verify your identity',
      'To do Your address is not confirmed yet. Confirm your address in your profile',
    ]);
    expect(screen.getByRole('link', { name: 'Verify your identity' }).getAttribute('href')).toBe('/unverified-account');
    expect(screen.getByRole('link', { name: 'Confirm your address in your profile' }).getAttribute('href')).toBe('/profile#address');
    expect(screen.queryByRole('link', { name: 'See your payments in the history' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Confirm the card' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('You can confirm the card once everything above is done.')).toBeTruthy();
    expect(asked).toEqual([{ name: 'cardConfirmRequirements', body: { accountId: 900 } }]);
  });

  it('every requirement met: Confirm calls cardConfirm for this card, and the card is confirmed', async () => {
    const user = userEvent.setup();
    platform({
      accountStatusId: 23,
      canConfirm: true,
      requirements: [
        { code: 'FEE_PAID', met: true },
        { code: 'IDENTITY_VERIFIED', met: true },
        { code: 'ADDRESS_CONFIRMED', met: true },
      ],
    });
    show();
    expect(await items()).toEqual(["Done The card's fees are paid.", 'Done Your identity is verified.', 'Done Your address is confirmed.']);
    await user.click(screen.getByRole('button', { name: 'Confirm the card' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Card confirmed' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Your card is confirmed.We make it now and ship it to your address.');
    expect(screen.getByRole('link', { name: 'See your card' }).getAttribute('href')).toBe('/cards/900');
    expect(asked.filter((a) => a.name === 'cardConfirm')).toEqual([{ name: 'cardConfirm', body: { accountId: 900 } }]);
  });

  it('a refused confirmation shows the platform’s words and keeps the page', async () => {
    const user = userEvent.setup();
    platform(
      { accountStatusId: 23, canConfirm: true, requirements: [{ code: 'FEE_PAID', met: true }] },
      { responseCode: 'TA1', responseDescription: 'The card cannot be confirmed now' },
    );
    show();
    await user.click(await screen.findByRole('button', { name: 'Confirm the card' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The card was not confirmed.The card cannot be confirmed now');
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm your card' })).toBeTruthy();
  });

  it('a card that waits for no confirmation says so and offers no Confirm', async () => {
    platform({ accountStatusId: 2, canConfirm: false, requirements: [] });
    show();
    const title = await screen.findByText('This card does not wait for a confirmation.');
    expect(title.closest('[role="status"]')!.textContent).toBe('This card does not wait for a confirmation.See your card');
    expect(screen.queryByRole('button', { name: 'Confirm the card' })).toBeNull();
  });
});
