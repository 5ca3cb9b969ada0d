/**
 * The profile screens against the REAL platform (PGlite), signed in as uma (unverified: phone not
 * confirmed, no identity document, no proof of residence). Only the transport is swapped (fetch →
 * app.inject); the views, the statecharts and the request wrapper are the app's own. uma confirms
 * her phone with the SMS code read from the outbox (a wrong code first), uploads an identity
 * document (a real PNG), sees it being checked and withdraws it, adds an e-mail address confirmed
 * with the mailed code and makes it primary, and an address change with a proof of address too
 * old is refused on that field with the platform's words; /kyc and /profile-update send her on
 * with the customer info the session needs. axe on each section and step.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { and, desc, eq } from 'drizzle-orm';
import axe from 'axe-core';
import { customerDocuments, customers, kycRequests, outbox, users } from '../../server/db/schema.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { PROFILE_SECTIONS } from '../../api/verification.ts';
import { KycPage } from '../../src/features/profile/kyc-view.tsx';
import { ProfilePage } from '../../src/features/profile/profile-view.tsx';
import { ProfileUpdatePage } from '../../src/features/profile/profile-update-view.tsx';
import { activateUiLanguage, ensureAppCatalog, i18n } from '../../src/lib/i18n.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { createTestApp, signIn, type TestApp } from '../server/harness.ts';
import { expectNoAxeViolations } from './axe.ts';
import { injectFetch } from './platform-transport.ts';

// Each step waits for the real platform (PGlite in this process).
configure({ asyncUtilTimeout: 15_000 });

let t: TestApp;
let token = '';


beforeAll(async () => {
  t = await createTestApp();
  token = (await signIn(t.app, 'uma')).accessToken;
  configureRequest({ getAccessToken: () => token, refresh: async () => false, getActingCustomerId: () => null });
  setFetchForTests(injectFetch(t.app));
}, 60_000);
afterAll(async () => {
  setFetchForTests(null);
  await t?.close();
});

function mount(page = <ProfilePage actingCustomerId={null} hash="" />) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>{page}</QueryClientProvider>
    </I18nProvider>,
  );
  return { user, container: view.container, client };
}

/** uma's customer id (from her login). */
async function umaCustomerId(): Promise<number> {
  const [u] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.uma.email));
  return u!.customerId;
}


const region = (name: RegExp) => screen.getByRole('region', { name });

async function lastSmsCode(): Promise<string> {
  const phone = `+${demoUserByKey.uma.phone.countryCode}${demoUserByKey.uma.phone.number}`;
  const [sms] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, phone))).orderBy(desc(outbox.id)).limit(1);
  return /(\d{6})/.exec(sms!.body)![1]!;
}

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
const isoDaysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('profile against the platform (uma)', () => {
  it('shows every section as a landmark with uma’s data, without axe violations', async () => {
    mount();
    for (const name of [/^personal data$/i, /^phones$/i, /^e-mail addresses$/i, /^addresses$/i, /^identity and proof of residence$/i, /^about you$/i]) {
      expect(await screen.findByRole('region', { name })).toBeTruthy();
    }
    await within(region(/^personal data$/i)).findByText('Uma Urbonaite');
    await within(region(/^phones$/i)).findByText('+370 61234578');
    expect(within(region(/^phones$/i)).getByText(/^not confirmed$/i)).toBeTruthy();
    await within(region(/^addresses$/i)).findByText(/Gedimino pr\. 9/);
    const identity = region(/^identity and proof of residence$/i);
    await waitFor(() => expect(within(identity).getAllByText(/^not uploaded$/i)).toHaveLength(2));
    await within(region(/^about you$/i)).findByRole('button', { name: /update your answers/i });
    await expectNoAxeViolations('the profile');
  });

  it('shows uma’s verification status at the top: not Checked, the action-required sentence', async () => {
    mount();
    const summary = await screen.findByRole('region', { name: /^verification status$/i });
    await within(summary).findByText('Action required');
    expect(within(summary).getByText('Your account is not verified yet. A few things are missing.')).toBeTruthy();
    expect(within(summary).queryByText('Checked')).toBeNull();
    // above every section
    const regions = screen.getAllByRole('region');
    expect(regions[0]).toBe(summary);
  });

  it('shows Checked for a verified customer (anna)', async () => {
    const uma = token;
    token = (await signIn(t.app, 'anna')).accessToken;
    try {
      mount();
      const summary = await screen.findByRole('region', { name: /^verification status$/i });
      await within(summary).findByText('Checked');
      expect(within(summary).getByText('Your account is verified.')).toBeTruthy();
      await expectNoAxeViolations('the verification status of a verified customer');
    } finally {
      token = uma;
    }
  });

  it('has an anchor for every section the required actions link to; a link with one lands on its heading', async () => {
    mount(<ProfilePage actingCustomerId={null} hash="identity" />);
    const identity = await screen.findByRole('region', { name: /^identity and proof of residence$/i });
    await waitFor(() => expect(document.activeElement).toBe(within(identity).getByRole('heading', { level: 2 })));
    await within(region(/^personal data$/i)).findByText('Uma Urbonaite');
    for (const section of PROFILE_SECTIONS) expect(document.getElementById(section), section).not.toBeNull();
  });

  it('confirms the phone with the SMS code: a wrong code shows the platform’s words, the right one confirms', async () => {
    const { user } = mount();
    const phones = await screen.findByRole('region', { name: /^phones$/i });
    await user.click(await within(phones).findByRole('button', { name: 'Confirm +370 61234578' }));
    const heading = await within(phones).findByRole('heading', { name: 'Confirm +370 61234578' });
    expect(document.activeElement).toBe(heading);
    await within(phones).findByText(/we sent a 6-digit code by sms to/i);
    await expectNoAxeViolations('the phone code step');

    const code = await lastSmsCode();
    const codeField = within(phones).getByLabelText(/^code$/i);
    // not six digits: said here, nothing sent
    await user.type(codeField, '12{Enter}');
    expect(await within(phones).findByText(/enter the 6-digit code/i)).toBeTruthy();
    await user.clear(codeField);
    await user.type(codeField, `${code === '000000' ? '111111' : '000000'}{Enter}`);
    const wrong = await within(phones).findByText(/^the code is wrong\.$/i);
    expect(codeField.getAttribute('aria-invalid')).toBe('true');
    expect(codeField.getAttribute('aria-describedby')).toContain(wrong.id);
    await expectNoAxeViolations('the phone code step with an error');

    await user.type(codeField, `${code}{Enter}`);
    await within(phones).findByText('Phone +370 61234578 confirmed.');
    await waitFor(() => expect(within(phones).getByText(/^confirmed$/i)).toBeTruthy());
    expect(within(phones).queryByRole('button', { name: 'Confirm +370 61234578' })).toBeNull();
  });

  it('a phone the platform refuses shows its words on the field', async () => {
    const { user } = mount();
    const phones = await screen.findByRole('region', { name: /^phones$/i });
    await user.click(await within(phones).findByRole('button', { name: /add a phone/i }));
    await user.type(within(phones).getByLabelText(/^country code/i), '+370');
    await user.type(within(phones).getByLabelText(/^phone number$/i), '12{Enter}');
    const error = await within(phones).findByText('Enter a phone number of 4 to 15 digits.');
    const field = within(phones).getByLabelText(/^phone number$/i);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(error.id);
    await expectNoAxeViolations('the phone form with an error');
  });

  it('in Romanian, the platform’s refusal reads as a Romanian sentence on the field (its code, not its English words)', async () => {
    await activateUiLanguage('ro');
    await ensureAppCatalog();
    try {
      const { user } = mount();
      const phones = await screen.findByRole('region', { name: /^numere de telefon$/i });
      await user.click(await within(phones).findByRole('button', { name: /adăugați un număr de telefon/i }));
      await user.type(within(phones).getByLabelText(/^prefix de țară/i), '+370');
      await user.type(within(phones).getByLabelText(/^număr de telefon$/i), '12{Enter}');
      const error = await within(phones).findByText('Introduceți un număr de telefon de 4 până la 15 cifre.');
      const field = within(phones).getByLabelText(/^număr de telefon$/i);
      expect(field.getAttribute('aria-describedby')).toContain(error.id);
      expect(within(phones).queryByText(/digits/i)).toBeNull();
    } finally {
      await activateUiLanguage('en');
    }
  });

  it('uploads an identity document (a real PNG) and sees it being checked', async () => {
    const { user } = mount();
    const identity = await screen.findByRole('region', { name: /^identity and proof of residence$/i });
    const open = await within(identity).findByRole('button', { name: /upload an identity document/i });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    // the number is asked in the upload's details step, not beside the form
    expect(within(identity).queryByLabelText(/^document number/i)).toBeNull();
    await user.selectOptions(within(identity).getByLabelText(/^document type$/i), 'Passport');
    await user.click(within(identity).getByRole('button', { name: /^continue$/i }));
    await within(identity).findByRole('heading', { name: /upload the document/i });
    await expectNoAxeViolations('the identity upload: file step');
    await user.upload(within(identity).getByLabelText(/^document file$/i), new File([PNG], 'passport.png', { type: 'image/png' }));
    await within(identity).findByRole('heading', { name: /document details/i });
    await user.type(within(identity).getByLabelText(/^document number/i), ' LT1234567 ');
    await user.type(within(identity).getByLabelText(/^issue date$/i), isoDaysFromToday(-400));
    await user.type(within(identity).getByLabelText(/^expiry date$/i), isoDaysFromToday(3000));
    await user.click(within(identity).getByRole('button', { name: /^continue$/i }));
    await within(identity).findByRole('heading', { name: /check and upload/i });
    expect(within(identity).getByText('LT1234567')).toBeTruthy();
    await user.click(within(identity).getByRole('button', { name: /^upload$/i }));
    await within(identity).findByText(/the document was uploaded/i);
    // stored with its number, trimmed
    const [doc] = await t.db.select().from(customerDocuments).where(eq(customerDocuments.customerId, await umaCustomerId())).orderBy(desc(customerDocuments.id)).limit(1);
    expect(doc!.number).toBe('LT1234567');
    // The lists and states are read again: the passport is there, and the identity is being checked.
    const table = await within(identity).findByRole('table', { name: /^identity documents$/i });
    await within(table).findByText('Passport');
    await waitFor(() => expect(within(identity).getAllByText(/^being checked$/i).length).toBeGreaterThan(0));
    await expectNoAxeViolations('the identity section after the upload');
  });

  it('withdraws the identity document still being checked', async () => {
    const { user } = mount();
    const identity = await screen.findByRole('region', { name: /^identity and proof of residence$/i });
    const table = await within(identity).findByRole('table', { name: /^identity documents$/i });
    await user.click(within(table).getByRole('button', { name: /^delete passport uploaded/i }));
    await within(identity).findByText(/no identity document uploaded yet/i);
    await waitFor(() => expect(within(identity).getAllByText(/^not uploaded$/i)).toHaveLength(2));
  });

  it('adds an e-mail address, confirms it with the mailed code, makes it primary and deletes the old one', async () => {
    const { user } = mount();
    const emails = await screen.findByRole('region', { name: /^e-mail addresses$/i });
    await user.click(await within(emails).findByRole('button', { name: /add an e-mail address/i }));
    await user.type(within(emails).getByLabelText(/^e-mail address$/i), 'uma.home@demo.test{Enter}');
    await within(emails).findByText('uma.home@demo.test');
    await user.click(within(emails).getByRole('button', { name: 'Confirm uma.home@demo.test' }));
    await within(emails).findByText(/we sent a 6-digit code to uma\.home@demo\.test/i);
    await expectNoAxeViolations('the e-mail code step');
    const [mail] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'mail'), eq(outbox.recipient, 'uma.home@demo.test'))).orderBy(desc(outbox.id)).limit(1);
    const code = /(\d{6})/.exec(mail!.body)![1]!;
    await user.type(within(emails).getByLabelText(/^code$/i), `${code}{Enter}`);
    await within(emails).findByText('uma.home@demo.test confirmed.');
    await user.click(await within(emails).findByRole('button', { name: 'Make primary: uma.home@demo.test' }));
    await within(emails).findByText(/the primary address was changed/i);
    await user.click(await within(emails).findByRole('button', { name: `Delete ${demoUserByKey.uma.email}` }));
    await within(emails).findByText(/the address was deleted/i);
    await waitFor(() => expect(within(emails).queryByRole('button', { name: `Delete ${demoUserByKey.uma.email}` })).toBeNull());
    // The username (the sign-in e-mail) is not an address of the list: it stays.
    expect(within(emails).getByText(`You sign in with ${demoUserByKey.uma.email}.`)).toBeTruthy();
  });

  it('an address change with a proof of address too old is refused on that field, then saved with a recent one', async () => {
    const { user } = mount();
    const addresses = await screen.findByRole('region', { name: /^addresses$/i });
    await user.click(await within(addresses).findByRole('button', { name: /change or add documents: gedimino/i }));
    await within(addresses).findByRole('heading', { name: /change the address/i });
    await expectNoAxeViolations('the address form');
    const street = within(addresses).getByLabelText(/^street and number$/i);
    await user.clear(street);
    await user.type(street, 'Pilies g. 1');
    await user.click(within(addresses).getByRole('button', { name: /^continue$/i }));
    await within(addresses).findByRole('heading', { name: /documents for the address/i });
    const main = within(addresses).getByRole('group', { name: /^proof of address/i });
    await waitFor(() => expect(within(main).getAllByRole('option').length).toBeGreaterThan(1));
    await user.selectOptions(within(main).getByLabelText(/^document type$/i), 'Utility bill');
    await user.upload(within(main).getByLabelText(/^document file$/i), new File([PNG], 'bill.png', { type: 'image/png' }));
    await user.type(within(main).getByLabelText(/^issue date$/i), isoDaysFromToday(-400));
    await user.click(within(addresses).getByRole('button', { name: /^continue$/i }));
    await within(addresses).findByRole('heading', { name: /check and save/i });
    await user.click(within(addresses).getByRole('button', { name: /save the address/i }));
    // VF on mainDocument.issuedDate: back on the documents step, the platform's words on the field.
    await within(addresses).findByRole('heading', { name: /documents for the address/i });
    const issued = within(within(addresses).getByRole('group', { name: /^proof of address/i })).getByLabelText(/^issue date$/i);
    const error = await within(addresses).findByText(/must be at most \d+ days old/i);
    expect(issued.getAttribute('aria-invalid')).toBe('true');
    expect(issued.getAttribute('aria-describedby')).toContain(error.id);
    await expectNoAxeViolations('the documents step with the platform’s error');

    await user.clear(issued);
    await user.type(issued, isoDaysFromToday(-10));
    await user.click(within(addresses).getByRole('button', { name: /^continue$/i }));
    await within(addresses).findByRole('heading', { name: /check and save/i });
    await user.click(within(addresses).getByRole('button', { name: /save the address/i }));
    await within(addresses).findByText(/the address was saved/i);
    await within(addresses).findByText(/Pilies g\. 1/);
    await within(addresses).findByRole('table', { name: /documents of this address/i });
    await act(async () => undefined);
  });
});

describe('/kyc and /profile-update against the platform (uma)', () => {
  it('/kyc: the provider’s reason, the questionnaire (a missing answer said on its field), then the customer info without isNeedKyc', async () => {
    const customerId = await umaCustomerId();
    await t.db.update(customers).set({ isNeedKyc: true }).where(eq(customers.id, customerId));
    await t.db.insert(kycRequests).values({ customerId, reason: 'Our yearly review of customer information', status: 'open', createdAt: new Date() });
    const onDone = vi.fn();
    const { user } = mount(<KycPage actingCustomerId={null} onDone={onDone} />);
    await screen.findByText('Our yearly review of customer information');
    const occupation = (await screen.findByLabelText(/^occupation$/i)) as HTMLSelectElement;
    await waitFor(() => expect(occupation.options.length).toBeGreaterThan(1));
    await expectNoAxeViolations('the KYC questionnaire');
    // Sent without a purpose: said on the purposes, nothing sent.
    await user.selectOptions(occupation, occupation.options[1]!.value);
    await user.click(within(screen.getByRole('group', { name: /sources of funds/i })).getAllByRole('checkbox')[0]!);
    await user.type(screen.getByLabelText(/^expected monthly turnover/i), 'up to 2 000 EUR');
    await user.click(screen.getByRole('radio', { name: /^no$/i }));
    await user.click(screen.getByRole('button', { name: /send and continue/i }));
    const purposes = screen.getByRole('group', { name: /purposes of the account/i });
    expect(within(purposes).getByText(/this is required/i)).toBeTruthy();
    expect(onDone).not.toHaveBeenCalled();
    await expectNoAxeViolations('the KYC questionnaire with an error');
    await user.click(within(purposes).getAllByRole('checkbox')[0]!);
    await user.click(screen.getByRole('button', { name: /send and continue/i }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(onDone.mock.calls[0]![0]).toMatchObject({ login: demoUserByKey.uma.email, isNeedKyc: false });
    const [row] = await t.db.select().from(customers).where(eq(customers.id, customerId));
    expect(row!.isNeedKyc).toBe(false);
  });

  it('/profile-update: the details as on file, a birth date in the future refused on its field, then saved', async () => {
    const customerId = await umaCustomerId();
    await t.db.update(customers).set({ isNeedPersonalInfoUpdate: true }).where(eq(customers.id, customerId));
    const onDone = vi.fn();
    const { user } = mount(<ProfileUpdatePage actingCustomerId={null} onDone={onDone} />);
    const first = (await screen.findByLabelText(/^first name$/i)) as HTMLInputElement;
    expect(first.value).toBe('Uma');
    expect((screen.getByLabelText(/^birth date$/i) as HTMLInputElement).value).toBe('1994-02-17');
    await waitFor(() => expect((screen.getByLabelText(/^country of residence$/i) as HTMLSelectElement).value).toBe('LT'));
    await expectNoAxeViolations('the personal details form');
    const birth = screen.getByLabelText(/^birth date$/i);
    await user.clear(birth);
    await user.type(birth, isoDaysFromToday(30));
    await user.click(screen.getByRole('button', { name: /save and continue/i }));
    const error = await screen.findByText(/must not be in the future/i);
    expect(birth.getAttribute('aria-describedby')).toContain(error.id);
    await user.clear(birth);
    await user.type(birth, '1994-02-17');
    const last = screen.getByLabelText(/^last name$/i);
    await user.clear(last);
    await user.type(last, '  Urbonaitė   Jonaitienė ');
    await user.click(screen.getByRole('button', { name: /save and continue/i }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    // Trimmed, whitespace collapsed (document 1 §5); the flag the start page reads is cleared.
    expect(onDone.mock.calls[0]![0]).toMatchObject({ lastName: 'Urbonaitė Jonaitienė', isNeedPersonalInfoUpdate: false });
  });
});
