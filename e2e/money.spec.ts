/**
 * The money journey of issue 4: tom converts EUR to USD between his own accounts, sends USD to
 * rita, approving each transfer with the code of the text message read from the outbox (tom's
 * approval mode is sms); both see the transfer in their history, and tom's CSV export downloads.
 * axe (WCAG 2.2 AA) on every page and step visited.
 */
import { expect, test, type Page } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { latestMessage } from './support/mailbox.ts';
import { LoginPage } from './models/login-page.ts';
import { TransferPage } from './models/transfer-page.ts';
import { HistoryPage } from './models/history-page.ts';

const tom = demoUserByKey.tom;
const rita = demoUserByKey.rita;

async function signIn(page: Page, user: { email: string; password: string }, welcome: RegExp): Promise<void> {
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(user.email, user.password);
  await expect(page.getByRole('heading', { level: 1, name: welcome })).toBeVisible();
}

/** The code of the approval SMS for this amount (a newer one replaces an older one for the same amount). */
async function approvalCode(request: Parameters<typeof latestMessage>[0], amountText: string): Promise<string> {
  const phone = `+${tom.phone.countryCode}${tom.phone.number}`;
  const escaped = amountText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const { match } = await latestMessage(request, phone, 'sms', new RegExp(`^(\\d{6}) is your code to approve the transfer of ${escaped}`));
  return match[1]!;
}

test('a customer converts EUR to USD, sends USD to another customer with an SMS code, both see it in history, and the export downloads', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  await signIn(page, tom, /Tom/);
  await expectNoAxeViolations(page, '/home (tom)');

  // 1. EUR -> USD between own accounts
  const transfer = new TransferPage(page);
  await transfer.openBetweenAccounts();
  await expectNoAxeViolations(page, '/transfer/account');
  await transfer.chooseFrom(/EUR account/);
  await transfer.chooseTo(/USD account/);
  await transfer.enterAmount('200.00');
  await transfer.expectFeeShown();
  await expectNoAxeViolations(page, '/transfer/account (fee shown)');
  await transfer.review();
  await expectNoAxeViolations(page, '/transfer/account (review)');
  await transfer.send();
  await transfer.expectCodeStep();
  await expectNoAxeViolations(page, '/transfer/account (sms code)');
  await transfer.submitCode(await approvalCode(request, '200.00 EUR'));
  await transfer.expectSuccess();
  await expectNoAxeViolations(page, '/transfer/account (done)');

  // 2. USD to rita, person to person
  await transfer.openP2p();
  await expectNoAxeViolations(page, '/transfer/p2p');
  await transfer.chooseFrom(/USD account/);
  await transfer.enterPayee(rita.email, /Rita/);
  await transfer.enterAmount('50.00');
  await transfer.enterNote('Concert tickets');
  await transfer.expectFeeShown();
  await transfer.review();
  await transfer.send();
  await transfer.expectCodeStep();
  await transfer.submitCode(await approvalCode(request, '50.00 USD'));
  await transfer.expectSuccess();
  await expectNoAxeViolations(page, '/transfer/p2p (done)');

  // 3. tom's history shows both, and the CSV export downloads
  const history = new HistoryPage(page);
  await history.open();
  // in US dollars: the demo history's payments to rita are in euros
  await history.expectRow(/rita@demo\.test/, /−\s?\$50\.00|-\s?\$50\.00/);
  await history.expectRow(/Concert tickets|rita/, /USD|\$/);
  await expectNoAxeViolations(page, '/history (tom)');
  const csv = await history.exportCsv();
  expect(csv.fileName).toMatch(/^history-\d{8}-\d{4}\.csv$/);
  expect(csv.content).toContain('rita@demo.test');
  expect(csv.content).toContain('Concert tickets');
  await expectNoAxeViolations(page, '/history (export ready)');

  // 4. rita, in a browser context of her own, sees the money arrive
  const ritaContext = await browser.newContext();
  try {
    const ritaPage = await ritaContext.newPage();
    await signIn(ritaPage, rita, /Rita/);
    const ritaHistory = new HistoryPage(ritaPage);
    await ritaHistory.open();
    await ritaHistory.expectRow(/Tom/, /\$50\.00/);
    await expectNoAxeViolations(ritaPage, '/history (rita)');
  } finally {
    await ritaContext.close();
  }
});
