/**
 * The administrator's review queue against the REAL platform (PGlite): only the transport is
 * swapped (fetch → app.inject); the view, the admin-review statechart and the request wrapper are
 * the app's own. uma starts a video identity job and uploads a passport; the administrator approves
 * the job and rejects the passport with a typed reason. After each decision the result is
 * announced in the queue's status region, focus moves to the next item (then the queue heading),
 * and uma's open customer panel shows the document's new status in words. axe on each step.
 *
 * Typing works here because this file runs in vitest's jsdom environment (as
 * profile-platform.test.tsx does), so the DOM exists before React DOM loads and React DOM listens
 * to `input` events. tests/ui/verification-platform.test.tsx runs in node and creates its DOM
 * after the ui setup file has loaded React DOM, which then takes the browser for one without
 * `input` events (an old-IE fallback that throws on typing): that file cannot type.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import { AdminOverviewView } from '../../src/features/admin/admin-overview-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { callMethod, createTestApp, signIn, type TestApp } from '../server/harness.ts';
import { expectNoAxeViolations } from './axe.ts';
import { injectFetch } from './platform-transport.ts';

configure({ asyncUtilTimeout: 15_000 });

let t: TestApp;
const tokens = { admin: '', uma: '' };
let jobId = '';
let passportId = 0;
const REASON = 'The photo page is cut off at the bottom';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);

/** customerJumioDocumentCreate as multipart (as the upload form sends it): a passport's front page. */
async function uploadPassport(token: string): Promise<number> {
  const boundary = `----admin-review-${Math.random().toString(16).slice(2)}`;
  const data = { categoryId: 1, documentTypeId: 1, number: 'LT7654321', issuedDate: '2022-03-01', expiresDate: '2032-03-01' };
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${JSON.stringify(data)}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="front"; filename="passport.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/?customerJumioDocumentCreate',
    payload: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  });
  const answer = res.json() as { responseCode: string; documents: { id: number; isSubDocument: boolean }[] };
  expect(answer.responseCode, res.body).toBe('00');
  return answer.documents.find((d) => !d.isSubDocument)!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  tokens.admin = (await signIn(t.app, 'admin')).accessToken;
  tokens.uma = (await signIn(t.app, 'uma')).accessToken;
  configureRequest({ getAccessToken: () => tokens.admin, refresh: async () => false, getActingCustomerId: () => null });
  setFetchForTests(injectFetch(t.app));
  const job = await t.app.inject({
    method: 'POST',
    url: '/api/v1/identity-verification',
    payload: { kind: 'video', channel: 'camera' },
    headers: { authorization: `Bearer ${tokens.uma}` },
  });
  expect(job.statusCode, job.body).toBe(200);
  jobId = (job.json() as { workflowRunId: string }).workflowRunId;
  passportId = await uploadPassport(tokens.uma);
}, 120_000);

afterAll(async () => {
  setFetchForTests(null);
  await t?.close();
});

function mount(token = () => tokens.admin) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <AdminOverviewView page={1} onPageChange={() => undefined} access={{ getAccessToken: token, refresh: async () => false }} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { user, client };
}


const queueStatus = () => within(screen.getByRole('region', { name: 'Review queue' })).getAllByRole('status')[0]!;

describe('the statechart audit pack (issue 14)', () => {
  it('opens in a new tab for the administrator, through a cookie for /audit/ only; a refusal closes the tab and says so', async () => {
    const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const calls: string[] = [];
    vi.stubGlobal('fetch', injectFetch(t.app, () => undefined));
    const transport = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(new URL(String(input), 'http://platform.test').pathname);
      return transport(input, init);
    });
    try {
      let token = tokens.admin;
      const { user } = mount(() => token);
      const button = await screen.findByRole('button', { name: 'Open the audit pack' });
      await user.click(button);
      await waitFor(() => expect(tab.location.href).toMatch(/\/audit\/$/));
      expect(open).toHaveBeenCalledWith('', '_blank');
      expect(tab.opener).toBeNull();
      expect(calls).toContain('/audit/session');
      // a customer's token is refused: the tab closes, the page says so
      token = tokens.uma;
      tab.location.href = '';
      await user.click(button);
      await screen.findByRole('alert');
      expect(screen.getByText('The audit pack could not be opened')).toBeTruthy();
      expect(tab.close).toHaveBeenCalled();
      expect(tab.location.href).toBe('');
    } finally {
      open.mockRestore();
      vi.unstubAllGlobals();
    }
  });
});

describe('the review queue against the platform (administrator)', () => {
  it('approves uma’s video identity job, rejects her passport with a typed reason; her panel follows', async () => {
    const { user } = mount();
    const jobs = await screen.findByRole('list', { name: 'Identity checks to review' });
    const jobHeading = await within(jobs).findByRole('heading', { level: 3, name: /^Video identity of Uma/ });
    const job = jobHeading.closest('li') as HTMLElement;
    expect(within(job).getByText('Video identity', { selector: 'dd' })).toBeTruthy();
    expect(within(job).getByText(/Personal/)).toBeTruthy();
    expect(within(job).getByText('Link expires')).toBeTruthy();
    const docs = screen.getByRole('list', { name: 'Documents to review' });
    const passportHeading = within(docs).getByRole('heading', { level: 3, name: /^Passport of Uma/ });
    await expectNoAxeViolations('the queue with a job and a document');

    // uma's panel is open while the administrator decides: it follows the decisions.
    await user.click(await screen.findByRole('button', { name: /^Manage Uma/ }));
    const panel = await screen.findByRole('region', { name: /^Customer Uma/ });
    const panelPassport = await within(panel).findByText((_, el) => el?.tagName === 'P' && /^Passport \(Identity\) · uploaded .* · Submitted/.test(el.textContent ?? ''));
    expect(panelPassport).toBeTruthy();
    expect(within(panel).getByText('Waiting for review')).toBeTruthy();
    await expectNoAxeViolations('the customer panel');

    // The job: approve.
    await user.click(within(job).getByRole('button', { name: /^Decide: Video identity of Uma/ }));
    const radios = within(job).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')!.textContent!.trim())).toEqual(['Approve it', 'Reject it']);
    await user.click(within(job).getByLabelText('Approve it'));
    await user.click(within(job).getByRole('button', { name: 'Continue' }));
    await within(job).findByRole('heading', { name: /^Check the decision: Video identity of Uma/ });
    await expectNoAxeViolations('the job decision to check');
    await user.click(within(job).getByRole('button', { name: 'Record the decision' }));
    await waitFor(() => expect(queueStatus().textContent).toMatch(/^Recorded: Video identity of Uma .*, Approve it\.$/));
    // The job left the queue; focus is on the next item, the passport.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Identity checks to review' })).toBeNull());
    expect(screen.getByText('No identity check is waiting for a decision.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 3, name: /^Passport of Uma/ })));
    const identity = await callMethod(t.app, 'identityGet', {}, { token: tokens.uma });
    expect(identity.body.identity).toMatchObject({ videoIdentity: { status: 'approved', jobId } });

    // The passport: a decision begun and canceled gives focus back to its Decide button.
    const passport = (document.activeElement ?? passportHeading).closest('li') as HTMLElement;
    await user.click(within(passport).getByRole('button', { name: /^Decide: Passport of Uma/ }));
    await user.click(within(passport).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(within(passport).getByRole('button', { name: /^Decide: Passport of Uma/ })));
    expect(queueStatus().textContent).toMatch(/^No decision was made: Passport of Uma .*\.$/);

    // Then rejected with a reason typed in the field (an empty one first: said on the field).
    await user.click(within(passport).getByRole('button', { name: /^Decide: Passport of Uma/ }));
    await user.click(within(passport).getByLabelText('Reject it'));
    await user.click(within(passport).getByRole('button', { name: 'Continue' }));
    const reason = await within(passport).findByLabelText('Reason shown to the customer');
    await user.click(within(passport).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(reason.getAttribute('aria-invalid')).toBe('true'));
    expect(within(passport).getByText('Give the reason: the customer reads it.')).toBeTruthy();
    await expectNoAxeViolations('the reason refused');
    await user.type(reason, REASON);
    await user.click(within(passport).getByRole('button', { name: 'Continue' }));
    await within(passport).findByRole('heading', { name: /^Check the decision: Passport of Uma/ });
    expect(within(passport).getByText(REASON)).toBeTruthy();
    await user.click(within(passport).getByRole('button', { name: 'Record the decision' }));
    await waitFor(() => expect(queueStatus().textContent).toMatch(/^Recorded: Passport of Uma .*, Reject it\.$/));

    // Focus: the next document still waiting, or the queue heading when none is left.
    const left = screen.queryByRole('list', { name: 'Documents to review' });
    const next = left ? within(left).queryAllByRole('heading', { level: 3 }).find((h) => !/^Passport of Uma/.test(h.textContent ?? '')) : undefined;
    await waitFor(() => expect(document.activeElement).toBe(next ?? screen.getByRole('heading', { level: 2, name: 'Review queue' })));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 3, name: /^Passport of Uma/ })).toBeNull());

    // The platform recorded it; the open panel shows the new status and the reason in words.
    const docsNow = await callMethod(t.app, 'documentsInquiry', { categoryId: 1 }, { token: tokens.uma });
    expect((docsNow.body.documents as { id: number; statusId: number; rejectReason: string | null }[]).find((d) => d.id === passportId)).toMatchObject({ statusId: 26, rejectReason: REASON });
    await within(panel).findByText((_, el) => el?.tagName === 'P' && /^Passport \(Identity\) · uploaded .* · Rejected/.test(el.textContent ?? ''));
    expect(within(panel).getByText(`Reason given to the customer: ${REASON}`)).toBeTruthy();
    expect(within(panel).getByText('Rejected: a new one is needed')).toBeTruthy();
    await expectNoAxeViolations('after both decisions');
  }, 90_000); // a long walk through the platform: its time-out catches a hang (bench/ measures speed)
});

describe("a company's representatives in the administrator's panel (document 3 §6)", () => {
  it('removes one the company can spare; one it needs only when the removal is forced, with what belongs to it', async () => {
    const { user } = mount();
    await user.click(await screen.findByRole('button', { name: 'Manage Northwind Trading Ltd' }));
    const panel = await screen.findByRole('region', { name: /^Customer Northwind Trading Ltd/ });
    const list = await within(panel).findByRole('heading', { level: 3, name: 'Representatives' });
    const section = list.parentElement as HTMLElement;
    expect(within(section).getByText('Harbour Holdings Ltd')).toBeTruthy();
    await expectNoAxeViolations("the company's representatives");

    // Harbour Holdings has a shareholder and a director of its own: not without force, and nothing changes.
    await user.click(within(section).getByRole('button', { name: 'Remove Harbour Holdings Ltd' }));
    await within(section).findByText('Not saved');
    expect(within(section).getByText('Harbour Holdings Ltd')).toBeTruthy();
    // Forced, it goes with Marta Lind, who held 50 % of it.
    await user.click(within(section).getByRole('checkbox', { name: /^Force the removal/ }));
    await user.click(within(section).getByRole('button', { name: 'Remove Harbour Holdings Ltd' }));
    await within(section).findByText('The representative was removed.');
    await waitFor(() => expect(within(section).queryByText('Harbour Holdings Ltd')).toBeNull());
    expect(within(section).queryByText('Marta Lind')).toBeNull();
    const companyId = Number(/\(ID (\d+)\)/.exec(within(panel).getByRole('heading', { level: 2 }).textContent ?? '')?.[1]);
    const tree = await callMethod(t.app, 'businessShareholderList', { fromCustomerId: companyId }, { token: tokens.admin });
    expect(tree.body.responseCode).toBe('00');
    expect((tree.body.shareholders as { companyName: string }[]).map((s) => s.companyName)).not.toContain('Harbour Holdings Ltd');
  }, 60_000);
});
