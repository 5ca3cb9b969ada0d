/**
 * Model-based test of "Recovery codes" in the settings: paths generated from the recovery codes
 * machine's graph drive the REAL RecoveryCodesSection through Testing Library. The renewal (POST
 * /auth/recovery-codes) is a test double answered by the paths' `xstate.done.actor.renewCodes` /
 * `xstate.error.actor.renewCodes` events; the count of unused codes is the real
 * recoveryCodesStatusQuery over a fetch double, so the checks also see it read again after a
 * renewal. A last test walks the section with the keyboard only and runs axe on every step.
 */
import { expectNoAxeViolations } from '../ui/axe.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TestModel } from '@xstate/graph';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { securityPaths } from '../../api/security.ts';
import { recoveryCodesMachine, type RecoveryCodesEvent, type RenewResult } from '../../machines/recovery-codes/recovery-codes.machine.ts';
import { RecoveryCodesSection } from '../../src/features/security/recovery-codes-section.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof recoveryCodesMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = RecoveryCodesEvent | SystemEvent;

const CODES = ['ABCDE-FGHJK', 'MNPQR-STUVW', '23456-789AB'];
const PASSWORD = 'Current-Pass-1';
/** unused codes before and after a renewal, as the fetch double answers them */
const UNUSED_BEFORE = 3;
const UNUSED_AFTER = 10;

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'RENEW.START': [{ type: 'RENEW.START' }],
  'RENEW.CANCEL': [{ type: 'RENEW.CANCEL' }],
  'PASSWORD.SUBMIT': [
    { type: 'PASSWORD.SUBMIT', password: PASSWORD },
    // left empty: said at once, nothing sent
    { type: 'PASSWORD.SUBMIT', password: '' },
  ],
  'CODES.SAVED': [
    { type: 'CODES.SAVED', saved: true },
    { type: 'CODES.SAVED', saved: false },
  ],
  'CODES.CONTINUE': [{ type: 'CODES.CONTINUE' }],
} satisfies { [K in RecoveryCodesEvent['type']]: Extract<RecoveryCodesEvent, { type: K }>[] };

function answersFor(s: Snap): SystemEvent[] {
  if (!s.children.renewCodes) return [];
  return [
    { type: 'xstate.done.actor.renewCodes', output: { ok: true, recoveryCodes: CODES } satisfies RenewResult },
    { type: 'xstate.done.actor.renewCodes', output: { ok: false, code: 'wrongPassword' } satisfies RenewResult },
    { type: 'xstate.done.actor.renewCodes', output: { ok: false, code: 'tooManyPasswords' } satisfies RenewResult },
    { type: 'xstate.done.actor.renewCodes', output: { ok: false, code: 'unknown' } satisfies RenewResult },
    { type: 'xstate.error.actor.renewCodes', error: new Error('offline') },
  ];
}

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(userEvents).flat(), ...answersFor(s)];
  return all.filter((e) => s.can(e as RecoveryCodesEvent));
}

/**
 * Only what the checks read, and only in the states that read it: snapshots that serialize alike
 * must look alike, and everything else would multiply the paths without testing more.
 */
const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    error: s.context.error,
    // in askingPassword too: a chart that kept `renewed` on RENEW.START would then reach idle with it
    // on a cancel (the real chart clears it, so no state is added)
    renewed: s.matches('idle') || s.matches('askingPassword') ? s.context.renewed : null,
    saved: s.matches('showingCodes') ? s.context.codesSaved : null,
  });

/** The platform's GET /auth/recovery-codes; any other call is a mistake of the view. */
function statusPlatform(unused: number) {
  const platform = { unused, reads: 0, unexpected: [] as string[] };
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (method === 'GET' && url.endsWith(securityPaths.recoveryCodes)) {
      platform.reads += 1;
      return new Response(JSON.stringify({ unused: platform.unused }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    platform.unexpected.push(`${method} ${url}`);
    return new Response(JSON.stringify({ message: 'not here' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
  });
  return { platform, fetchFn };
}

function mount(unused = UNUSED_BEFORE) {
  const q = { renewCodes: new AnswerQueue<{ password: string }, RenewResult>() };
  const { platform, fetchFn } = statusPlatform(unused);
  vi.stubGlobal('fetch', fetchFn);
  const logic = recoveryCodesMachine.provide({
    actors: { renewCodes: fromPromise(({ input }) => q.renewCodes.next(input)) },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup({ delay: null });
  // What the test did, to expect what the user sees from it rather than from the chart's own
  // context (a chart that remembered the wrong thing would otherwise agree with itself).
  const did: { last: ModelEvent | null; renewed: boolean; saved: boolean } = { last: null, renewed: false, saved: false };
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RecoveryCodesSection session={{ getAccessToken: () => 'access-token', refresh: async () => true }} logic={logic} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { q, platform, user, did, container: view.container };
}
type Harness = ReturnType<typeof mount>;

afterEach(() => {
  vi.unstubAllGlobals();
});

const ERROR_TEXT: Record<string, RegExp> = {
  passwordRequired: /enter your current password to get new recovery codes/i,
  wrongPassword: /password is not correct/i,
  tooManyPasswords: /too many wrong passwords/i,
  network: /connection failed/i,
  unknown: /something went wrong/i,
};
/** Shown on the password field (aria-invalid, described by the error); the others above the form. */
const ON_FIELD = ['passwordRequired', 'wrongPassword', 'tooManyPasswords'];

const passwordField = () => screen.getByLabelText(/^current password$/i) as HTMLInputElement;
const submitButton = () => screen.getByRole('button', { name: /^get new codes$/i });

/** The error the last thing done calls for: an empty password, the platform's refusal, a network failure, or none. */
function expectedError(h: Harness): string | null {
  const last = h.did.last;
  if (last?.type === 'PASSWORD.SUBMIT') return (last as Extract<RecoveryCodesEvent, { type: 'PASSWORD.SUBMIT' }>).password ? null : 'passwordRequired';
  if (last?.type === 'xstate.error.actor.renewCodes') return 'network';
  const output = (last as SystemEvent | null)?.output as RenewResult | undefined;
  return output && !output.ok ? output.code : null;
}

function expectError(h: Harness) {
  const error = expectedError(h);
  if (!error) {
    for (const pattern of Object.values(ERROR_TEXT)) expect(screen.queryByText(pattern)).toBeNull();
    expect(passwordField().getAttribute('aria-invalid')).toBeNull();
    return;
  }
  const text = screen.getByText(ERROR_TEXT[error]!);
  if (ON_FIELD.includes(error)) {
    expect(passwordField().getAttribute('aria-invalid')).toBe('true');
    expect(passwordField().getAttribute('aria-describedby')).toContain(text.id);
    expect(screen.queryByRole('alert')).toBeNull();
  } else {
    expect(within(screen.getByRole('alert')).getByText(ERROR_TEXT[error]!)).toBeTruthy();
    expect(passwordField().getAttribute('aria-invalid')).toBeNull();
  }
  // Every refusal puts focus on the field for the next try.
  expect(document.activeElement).toBe(passwordField());
}

function stateChecks(h: Harness) {
  return {
    idle: async (s: Snap) => {
      await screen.findByRole('button', { name: /^get new recovery codes$/i });
      expect(screen.getByRole('heading', { name: /^recovery codes$/i })).toBeTruthy();
      // The count is what the platform says now: read again after a renewal.
      await screen.findByText(`You have ${h.platform.unused} unused recovery codes.`);
      if (h.did.renewed) expect(screen.getByText(/your new recovery codes are active/i)).toBeTruthy();
      else expect(screen.queryByText(/your new recovery codes are active/i)).toBeNull();
      // The codes left the screen and the machine.
      expect(screen.queryByText(CODES[0]!)).toBeNull();
      expect(s.context.recoveryCodes).toBeNull();
      expect(screen.queryByLabelText(/^current password$/i)).toBeNull();
      expect(h.platform.unexpected).toEqual([]);
      expectOffered(s, [{ type: 'RENEW.START' }]);
      // asking for new codes leaves this page
      expect(h.did.last?.type).not.toBe('RENEW.START');
    },
    askingPassword: async (s: Snap) => {
      await screen.findByRole('heading', { name: /confirm with your password/i });
      await waitFor(() => expect(submitButton().getAttribute('aria-busy')).toBeNull());
      expect(screen.getByText(/your current recovery codes stop working/i)).toBeTruthy();
      expect(passwordField().disabled).toBe(false);
      // Once sent, the password is not kept by the view either.
      expect(passwordField().value).toBe('');
      expectError(h);
      expectOffered(s, [{ type: 'PASSWORD.SUBMIT', password: PASSWORD }, { type: 'RENEW.CANCEL' }]);
      // a password given is sent, and a cancel leaves the page
      const last = h.did.last as { type: string; password?: string } | null;
      expect(last?.type === 'RENEW.CANCEL' || (last?.type === 'PASSWORD.SUBMIT' && last.password !== '')).toBe(false);
    },
    renewing: async (s: Snap) => {
      await waitFor(() => expect(submitButton().getAttribute('aria-busy')).toBe('true'));
      expect(passwordField().disabled).toBe(true);
      // the password typed goes with the request, and is not kept by the machine
      expect(h.q.renewCodes.waiting).toBe(1);
      expect(h.q.renewCodes.calls.at(-1)).toEqual({ password: PASSWORD });
      expect(JSON.stringify(s.context)).not.toContain(PASSWORD);
      expect(screen.queryByRole('alert')).toBeNull();
    },
    showingCodes: async (s: Snap) => {
      await screen.findByRole('heading', { name: /save your recovery codes/i });
      const list = screen.getByRole('list');
      expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
      const box = screen.getByRole('checkbox', { name: /i saved my recovery codes/i }) as HTMLInputElement;
      await waitFor(() => expect(box.checked).toBe(h.did.saved));
      expect((screen.getByRole('button', { name: /^continue$/i }) as HTMLButtonElement).disabled).toBe(!h.did.saved);
      expect(screen.queryByLabelText(/^current password$/i)).toBeNull();
      const offered: RecoveryCodesEvent[] = [{ type: 'CODES.SAVED', saved: !h.did.saved }];
      if (h.did.saved) offered.push({ type: 'CODES.CONTINUE' });
      expectOffered(s, offered);
      // continuing leaves the codes' page
      expect(h.did.last?.type).not.toBe('CODES.CONTINUE');
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    h.did.last = e;
    if (!e.type.startsWith('xstate.error') && (e.output as RenewResult).ok) {
      h.did.renewed = true;
      h.did.saved = false;
    }
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else {
        // The platform replaced the codes: its count changes with the answer.
        if ((e.output as RenewResult).ok) h.platform.unused = UNUSED_AFTER;
        queue.answer(e.output);
      }
    });
  };
  return {
    'RENEW.START': async () => {
      h.did.last = { type: 'RENEW.START' };
      h.did.renewed = false;
      await h.user.click(screen.getByRole('button', { name: /^get new recovery codes$/i }));
    },
    'RENEW.CANCEL': async () => {
      h.did.last = { type: 'RENEW.CANCEL' };
      await h.user.click(screen.getByRole('button', { name: /^cancel$/i }));
    },
    'PASSWORD.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<RecoveryCodesEvent, { type: 'PASSWORD.SUBMIT' }>;
      h.did.last = e;
      await h.user.clear(passwordField());
      if (e.password) await h.user.type(passwordField(), e.password);
      await h.user.click(submitButton());
    },
    'CODES.SAVED': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<RecoveryCodesEvent, { type: 'CODES.SAVED' }>;
      h.did.last = e;
      h.did.saved = e.saved;
      const box = screen.getByRole('checkbox', { name: /i saved my recovery codes/i }) as HTMLInputElement;
      if (box.checked !== e.saved) await h.user.click(box);
    },
    'CODES.CONTINUE': async () => {
      h.did.last = { type: 'CODES.CONTINUE' };
      await h.user.click(screen.getByRole('button', { name: /^continue$/i }));
    },
    'xstate.done.actor.renewCodes': answer(h.q.renewCodes),
    'xstate.error.actor.renewCodes': answer(h.q.renewCodes),
  };
}

const model = new TestModel(recoveryCodesMachine, {
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('recovery codes model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const label = events
      .map((e) => {
        const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
        if ('output' in e) {
          const out = e.output as RenewResult;
          return `${short}(${out.ok ? 'ok' : out.code})`;
        }
        if ('password' in e) return `${short}(${e.password ? 'password' : 'empty'})`;
        if ('saved' in e) return `${short}(${e.saved})`;
        return short;
      })
      .join(' → ');
    it(`#${i} ${label} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });
});

describe('recovery codes model: the chart', () => {
  it('is named recoveryCodes (the inspector and the audit pack show it by that id)', () => {
    expect(recoveryCodesMachine.id).toBe('recoveryCodes');
  });

  it('reaches every state on some path', () => {
    expect(unreachedStates(recoveryCodesMachine, paths)).toEqual([]);
  });
});

describe('recovery codes model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(recoveryCodesMachine, undefined, [events as never])) taken.add(key);
    const missing = listTransitions(recoveryCodesMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});

describe('recovery codes section: keyboard and axe', () => {
  /** axe-core (WCAG 2.2 AA, as the e2e journeys use it) on the section as it is now. */
  it('gets new codes with the keyboard only, focus following each step, without axe violations', async () => {
    const h = mount();
    await screen.findByText(`You have ${UNUSED_BEFORE} unused recovery codes.`);
    await expectNoAxeViolations('idle', h.container);

    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^get new recovery codes$/i }));
    await h.user.keyboard('{Enter}');
    // The step heading takes focus (StepHeading), so the warning is read next.
    const heading = await screen.findByRole('heading', { name: /confirm with your password/i });
    expect(document.activeElement).toBe(heading);
    await expectNoAxeViolations('the password step', h.container);

    // Enter on an empty field: the error is on the field, and focus goes there.
    await h.user.tab();
    expect(document.activeElement).toBe(passwordField());
    await h.user.keyboard('{Enter}');
    expect(passwordField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(passwordField());
    expect(h.q.renewCodes.calls).toEqual([]);
    await expectNoAxeViolations('the password step with an error', h.container);

    await h.user.keyboard(`${PASSWORD}{Enter}`);
    await waitFor(() => expect(h.q.renewCodes.waiting).toBe(1));
    await act(async () => {
      h.platform.unused = UNUSED_AFTER;
      h.q.renewCodes.answer({ ok: true, recoveryCodes: CODES });
    });
    const codesHeading = await screen.findByRole('heading', { name: /save your recovery codes/i });
    expect(document.activeElement).toBe(codesHeading);
    await expectNoAxeViolations('the new codes', h.container);

    // Copy, Download, then the checkbox; Space ticks it, and Continue opens.
    await h.user.tab();
    await h.user.tab();
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: /i saved my recovery codes/i }));
    await h.user.keyboard(' ');
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^continue$/i }));
    await h.user.keyboard('{Enter}');

    await screen.findByText(/your new recovery codes are active/i);
    await screen.findByText(`You have ${UNUSED_AFTER} unused recovery codes.`);
    await expectNoAxeViolations('idle after the renewal', h.container);
  });

  it('says so when no unused code is left', async () => {
    const h = mount(0);
    await screen.findByText('You have no unused recovery codes.');
    expect(h.platform.reads).toBe(1);
    await expectNoAxeViolations('idle without codes', h.container);
  });

  it('says so when the count cannot be read, and still offers new codes', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })));
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RecoveryCodesSection session={{ getAccessToken: () => 'access-token', refresh: async () => true }} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    await screen.findByText(/number of unused recovery codes could not be loaded/i);
    expect(screen.getByRole('button', { name: /^get new recovery codes$/i })).toBeTruthy();
  });
});
