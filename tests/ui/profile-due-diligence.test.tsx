/**
 * Due diligence and address confirmation on /profile against the REAL platform (PGlite), signed in
 * as uma. Only the transport is swapped (fetch → app.inject), and every method the page calls is
 * recorded. At due-diligence level 0 there is no section and no dueDiligenceInfoGet call; the
 * administrator sets level 1 (a proof of address and a payslip asked for) and uma sees what is asked
 * in words, uploads the payslip (sent with isDueDiligence 1) and sees it being checked; at level 4
 * the section is there too and she uploads the proof of address. An unconfirmed address offers
 * "Confirm this address": the platform's answer is announced and the list read again; an address
 * gone meanwhile shows the platform's refusal. axe on each state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { and, desc, eq } from 'drizzle-orm';
import axe from 'axe-core';
import { auditLog, customerAddresses, customerDocuments, customers, users } from '../../server/db/schema.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { ProfilePage } from '../../src/features/profile/profile-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { callMethod, createTestApp, signIn, type TestApp } from '../server/harness.ts';
import { expectNoAxeViolations } from './axe.ts';
import { injectFetch } from './platform-transport.ts';

// Each step waits for the real platform (PGlite in this process).
configure({ asyncUtilTimeout: 15_000 });

let t: TestApp;
let token = '';
let adminToken = '';
/** the methods the page called, in order */
let calls: string[] = [];


beforeAll(async () => {
  t = await createTestApp();
  token = (await signIn(t.app, 'uma')).accessToken;
  adminToken = (await signIn(t.app, 'admin')).accessToken;
  configureRequest({ getAccessToken: () => token, refresh: async () => false, getActingCustomerId: () => null });
  setFetchForTests(injectFetch(t.app, (method) => calls.push(method)));
}, 60_000);
afterAll(async () => {
  setFetchForTests(null);
  await t?.close();
});

function mount() {
  calls = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ProfilePage actingCustomerId={null} hash="" />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { user };
}

async function umaCustomerId(): Promise<number> {
  const [u] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.uma.email));
  return u!.customerId;
}

/** The administrator's call (document 1 §6), as the admin overview makes it. */
async function setDueDiligence(dueDiligenceLevel: number, addressDocumentRequired: boolean, requiredDocumentTypeIds: number[]) {
  const answer = await callMethod(t.app, 'dueDiligenceUpdate', { customerId: await umaCustomerId(), dueDiligenceLevel, addressDocumentRequired, requiredDocumentTypeIds }, { token: adminToken });
  expect(answer.body.responseCode).toBe('00');
}


const region = (name: RegExp) => screen.getByRole('region', { name });
/** The value of a fact (dt/dd) of a section. */
const fact = (within_: HTMLElement, term: string) => within(within_).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
const isoDaysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Goes through the upload form inside `where`: type, file, issue date, review, upload. */
async function uploadThrough(user: ReturnType<typeof userEvent.setup>, where: HTMLElement, typeName: string, fileName: string) {
  await user.selectOptions(within(where).getByLabelText(/^document type$/i), typeName);
  await user.click(within(where).getByRole('button', { name: /^continue$/i }));
  await within(where).findByRole('heading', { name: /upload the document/i });
  await user.upload(within(where).getByLabelText(/^document file$/i), new File([PNG], fileName, { type: 'image/png' }));
  await within(where).findByRole('heading', { name: /^document dates$/i });
  await user.type(within(where).getByLabelText(/^issue date$/i), isoDaysFromToday(-10));
  await user.click(within(where).getByRole('button', { name: /^continue$/i }));
  await within(where).findByRole('heading', { name: /check and upload/i });
  await user.click(within(where).getByRole('button', { name: /^upload$/i }));
  await within(where).findByText(/the document was uploaded/i);
}

describe('due diligence on /profile (uma)', () => {
  it('level 0: no due-diligence section and no dueDiligenceInfoGet call', async () => {
    const [row] = await t.db.select().from(customers).where(eq(customers.id, await umaCustomerId()));
    expect(row!.dueDiligenceLevel).toBe(0);
    mount();
    await within(await screen.findByRole('region', { name: /^personal data$/i })).findByText('Uma Urbonaite');
    await within(region(/^addresses$/i)).findByText(/Gedimino pr\. 9/);
    await screen.findByRole('region', { name: /^about you$/i });
    expect(calls).toContain('getCustomerInfo');
    expect(screen.queryByRole('region', { name: /^due diligence$/i })).toBeNull();
    expect(screen.queryByRole('link', { name: /^due diligence$/i })).toBeNull();
    expect(calls).not.toContain('dueDiligenceInfoGet');
    await expectNoAxeViolations('the profile at level 0');
  });

  it('level 1: what is asked for in words; the payslip uploaded for the review (isDueDiligence 1) is then being checked', async () => {
    await setDueDiligence(1, true, [80]);
    const { user } = mount();
    const dd = await screen.findByRole('region', { name: /^due diligence$/i });
    expect(screen.getByRole('link', { name: /^due diligence$/i }).getAttribute('href')).toBe('#dueDiligence');
    await within(dd).findByText('Proof of address');
    expect(calls).toContain('dueDiligenceInfoGet');
    expect(fact(dd, 'Proof of address')).toBe('Not uploaded');
    expect(fact(dd, 'Supporting documents')).toBe('Not uploaded');
    await within(dd).findByText('Payslip');
    expect(within(dd).getByText('Not uploaded', { selector: 'li p' })).toBeTruthy();
    await expectNoAxeViolations('the due-diligence section');

    const open = await within(dd).findByRole('button', { name: 'Upload Payslip' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    await expectNoAxeViolations('the due-diligence upload: type step');
    await uploadThrough(user, dd, 'Payslip', 'payslip.png');
    const [doc] = await t.db.select().from(customerDocuments).where(eq(customerDocuments.customerId, await umaCustomerId())).orderBy(desc(customerDocuments.id)).limit(1);
    expect(doc!.documentTypeId).toBe(80);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'customerJumioDocumentCreate')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toMatchObject({ documentTypeId: 80, isDueDiligence: true });

    // Read again: the payslip is being checked, listed among the documents sent for the review.
    await within(dd).findByText('Uploaded, we are checking it');
    await waitFor(() => expect(fact(dd, 'Supporting documents')).toBe('Being checked'));
    const table = await within(dd).findByRole('table', { name: /^documents sent for the review$/i });
    expect(within(table).getByText('Payslip')).toBeTruthy();
    await expectNoAxeViolations('the due-diligence section after the upload');
    await user.click(within(dd).getByRole('button', { name: /^close$/i }));
    // Nothing more to upload for the payslip: focus goes back to the section's heading.
    await waitFor(() => expect(document.activeElement).toBe(within(dd).getByRole('heading', { level: 2, name: /^due diligence$/i })));
    expect(within(dd).queryByRole('button', { name: 'Upload Payslip' })).toBeNull();
  });

  it('level 4: the section too; the proof of address is uploaded from it', async () => {
    await setDueDiligence(4, true, [80]);
    const { user } = mount();
    const dd = await screen.findByRole('region', { name: /^due diligence$/i });
    await within(dd).findByText('Proof of address');
    expect(fact(dd, 'Proof of address')).toBe('Not uploaded');
    const open = await within(dd).findByRole('button', { name: /^upload a proof of address$/i });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    await uploadThrough(user, dd, 'Utility bill', 'bill.png');
    await waitFor(() => expect(fact(dd, 'Proof of address')).toBe('Being checked'));
    const [doc] = await t.db.select().from(customerDocuments).where(eq(customerDocuments.customerId, await umaCustomerId())).orderBy(desc(customerDocuments.id)).limit(1);
    expect(doc).toMatchObject({ documentTypeId: 10, categoryId: 2 });
    await expectNoAxeViolations('the due-diligence section after the proof of address');
  });
});

describe('address confirmation on /profile (uma)', () => {
  it('an unconfirmed address offers “Confirm this address”: the answer is announced and the list read again', async () => {
    const { user } = mount();
    const addresses = await screen.findByRole('region', { name: /^addresses$/i });
    const confirm = await within(addresses).findByRole('button', { name: 'Confirm this address: Gedimino pr. 9' });
    await expectNoAxeViolations('the addresses with a confirm button');
    const readsBefore = calls.filter((c) => c === 'addressInquiry').length;
    await user.click(confirm);
    await within(addresses).findByText('You confirmed that Gedimino pr. 9 is still your address.');
    expect(within(addresses).getByRole('status').textContent).toContain('You confirmed that Gedimino pr. 9');
    expect(calls).toContain('confirmAddress');
    await waitFor(() => expect(calls.filter((c) => c === 'addressInquiry').length).toBeGreaterThan(readsBefore));
    const [row] = await t.db.select().from(customerAddresses).where(and(eq(customerAddresses.customerId, await umaCustomerId()), eq(customerAddresses.address1, 'Gedimino pr. 9')));
    expect(row!.customerConfirmedAt).not.toBeNull();
    // confirmed: no longer offered
    await waitFor(() => expect(within(addresses).queryByRole('button', { name: 'Confirm this address: Gedimino pr. 9' })).toBeNull());
    await expectNoAxeViolations('the addresses after the confirmation');
  });

  it('an address gone meanwhile: the platform’s refusal is shown', async () => {
    // not confirmed by the customer yet (the test before confirmed it)
    await t.db.update(customerAddresses).set({ customerConfirmedAt: null }).where(eq(customerAddresses.customerId, await umaCustomerId()));
    const { user } = mount();
    const addresses = await screen.findByRole('region', { name: /^addresses$/i });
    const confirm = await within(addresses).findByRole('button', { name: 'Confirm this address: Gedimino pr. 9' });
    // Deleted elsewhere (another session) after the list was read.
    await t.db.update(customerAddresses).set({ deletedAt: new Date() }).where(eq(customerAddresses.customerId, await umaCustomerId()));
    await user.click(confirm);
    const alert = await within(addresses).findByRole('alert');
    expect(alert.textContent).toMatch(/the change was not saved/i);
    expect(alert.textContent).toMatch(/no such address/i);
    expect(within(addresses).queryByText(/you confirmed that/i)).toBeNull();
    await expectNoAxeViolations('the addresses with the refusal');
  });
});
