/**
 * Cards (issue 16 item 5's e2e): a customer applies for a virtual card, loads it, pays with it
 * through the issuer simulator's terminal, sees the holding and then the posted payment, pauses the
 * card and sees the next payment declined with its reason, unpauses it, changes the PIN and shows
 * it. The card's number, expiry and CVV are read from the page the customer reveals them on (after
 * her password), as a merchant's terminal would be given them. axe (WCAG 2.2 AA) on every step;
 * E2E_SHOTS=<dir> also saves each step at 390 and 1366 pixels wide.
 *
 * Rita approves with no code (approval mode none) and pays the card's fees from her USD account:
 * the other journeys use her EUR account.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { LoginPage } from './models/login-page.ts';
import { TransferPage } from './models/transfer-page.ts';
import { step } from './support/step.ts';

const rita = demoUserByKey.rita;
const run = Date.now().toString(36);

interface Secrets {
  cardNumber: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

/** The value of one revealed secret on /card/{id}/pin (src/ui/secret-fields.tsx SecretValue). */
const secretValue = (page: Page, label: string) =>
  page
    .locator('.secret-value')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('.secret-value-digits');

async function confirmWithPassword(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Enter your password' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(rita.password);
  await page.getByRole('button', { name: 'Confirm' }).click();
}

/** A merchant's terminal asks the issuer simulator to authorise a payment (demo mode only). */
async function pay(request: APIRequestContext, card: Secrets, amount: string, merchantName: string) {
  const answer = await request.post('/dev/cards/authorizations', {
    data: { ...card, amount, currency: 'USD', merchantName, merchantCategoryCode: '5814', merchantCountryCode: 'IT' },
  });
  expect(answer.status()).toBeLessThan(300);
  return (await answer.json()) as { authorizationId: number | null; status: string; declineReason: string | null };
}

async function openCard(page: Page, cardId: number): Promise<void> {
  await page.goto(`/cards/${cardId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Online ${run}` })).toBeVisible();
}

test('a customer applies for a virtual card, pays with it, pauses it and shows its PIN', async ({ page, request }) => {
  test.setTimeout(240_000);
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(rita.email, rita.password);
  await expect(page.getByRole('heading', { level: 1, name: /Rita/ })).toBeVisible();

  // apply: a virtual card in USD, named, its fees from the USD account; no approval code (mode none)
  await page.goto('/add-card');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a card' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Virtual cards' })).toBeVisible();
  await step(page, 'cards-products');
  await page.getByRole('button', { name: /^Choose this card: \w+ virtual card in USD$/ }).click();
  await page.getByLabel('Card name (optional)').fill(`Online ${run}`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('radio', { name: /USD/ }).first().check();
  await step(page, 'cards-fee-account');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Apply for the card' })).toBeVisible();
  await step(page, 'cards-review');
  await page.getByRole('button', { name: 'Apply for the card' }).click();
  await expect(page.getByText('Your virtual card is ready.')).toBeVisible({ timeout: 20_000 });
  await step(page, 'cards-applied');
  await page.getByRole('link', { name: 'See your card' }).click();
  await expect(page).toHaveURL(/\/cards\/\d+$/);
  const cardId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByRole('heading', { level: 1, name: `Online ${run}` })).toBeVisible();
  await step(page, 'cards-detail');

  // load it from the USD account (an own-account transfer to the card)
  await page.getByRole('link', { name: 'Add money to the card' }).click();
  await expect(page).toHaveURL(/\/transfer\/account\?toAccountId=\d+/);
  const transfer = new TransferPage(page);
  await transfer.chooseFrom(/USD/);
  await transfer.enterAmount('40');
  await transfer.review();
  await transfer.send();
  await transfer.expectSuccess();

  // the card's number, expiry and CVV, shown after the password and hidden again later
  await openCard(page, cardId);
  await page.getByRole('link', { name: 'Show PIN or card details' }).click();
  await expect(page).toHaveURL(new RegExp(`/card/${cardId}/pin/?$`));
  await page.getByRole('button', { name: 'Show card details' }).click();
  await confirmWithPassword(page);
  await expect(secretValue(page, 'Card number')).toHaveText(/^[\d ]{16,23}$/);
  const [expiryMonth, expiryYear] = (await secretValue(page, 'Valid until').innerText()).split('/').map(Number);
  const card: Secrets = {
    cardNumber: (await secretValue(page, 'Card number').innerText()).replace(/\s+/g, ''),
    expiryMonth: expiryMonth!,
    expiryYear: expiryYear! < 100 ? 2000 + expiryYear! : expiryYear!,
    cvv: await secretValue(page, 'CVV').innerText(),
  };
  await step(page, 'cards-details-shown');
  await page.getByRole('button', { name: 'Hide now' }).click();
  await expect(page.getByText(card.cardNumber.slice(-4), { exact: false })).toHaveCount(0);

  // a payment: held first, then posted
  const held = await pay(request, card, '12.34', `Corner Café ${run}`);
  expect(held).toMatchObject({ status: 'authorized', declineReason: null });
  await openCard(page, cardId);
  const onHold = page.getByRole('region', { name: 'Card payments on hold' });
  await expect(onHold.getByRole('row').filter({ hasText: `Corner Café ${run}` })).toContainText('12.34');
  await step(page, 'cards-payment-held');
  await page.goto(`/history?accountId=${cardId}`);
  const history = page.getByRole('table', { name: /^Transactions/ });
  await expect(history.getByRole('row').filter({ hasText: `Corner Café ${run}` })).toContainText('Pending');
  const cleared = await request.post(`/dev/cards/authorizations/${held.authorizationId}/clearing`, { data: {} });
  expect(cleared.status()).toBeLessThan(300);
  await page.reload();
  await expect(history.getByRole('row').filter({ hasText: `Corner Café ${run}` })).toContainText('Completed');
  await step(page, 'cards-payment-posted');

  // paused: the next payment is declined, and history says why
  await openCard(page, cardId);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  const pauseDialog = page.getByRole('dialog', { name: 'Pause this card?' });
  await step(page, 'cards-pause-dialog');
  await pauseDialog.getByRole('button', { name: 'Pause the card' }).click();
  await expect(page.getByText('The card is paused. Payments with it are declined until you unpause it.')).toBeVisible();
  const declined = await pay(request, card, '5.00', `Bakery ${run}`);
  expect(declined).toMatchObject({ status: 'declined', declineReason: 'CARD_PAUSED' });
  await page.goto(`/history?accountId=${cardId}`);
  await expect(history.getByRole('row').filter({ hasText: `Bakery ${run}` })).toContainText('The card is paused');
  await step(page, 'cards-payment-declined');

  // unpaused; a new PIN, then shown after the password
  await openCard(page, cardId);
  await page.getByRole('button', { name: 'Unpause', exact: true }).click();
  await page.getByRole('dialog', { name: 'Unpause this card?' }).getByRole('button', { name: 'Unpause the card' }).click();
  await expect(page.getByText('The card can be used again.')).toBeVisible();
  await page.getByRole('link', { name: 'Change PIN' }).click();
  await page.getByRole('textbox', { name: 'New PIN', exact: true }).fill('5173');
  await page.getByRole('textbox', { name: 'Repeat the new PIN', exact: true }).fill('5173');
  await page.getByLabel('I want to change the PIN: the old one stops working.').check();
  await page.getByRole('button', { name: 'Change the PIN' }).click();
  await expect(page.getByText('Your new PIN is set. Use it from your next payment.')).toBeVisible();
  await page.getByRole('button', { name: 'Show PIN' }).click();
  await confirmWithPassword(page);
  await expect(secretValue(page, 'PIN')).toHaveText('5173');
  await step(page, 'cards-pin-shown');
});
