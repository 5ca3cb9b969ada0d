/**
 * Model-based test of personal registration: paths generated from the registration machine's
 * graph drive the REAL RegistrationView through Testing Library (typing the e-mail, filling and
 * submitting the form, asking for the code again). The named methods are test doubles whose
 * answers are the paths' `xstate.done.actor.*` events; the debounce fires by sending its
 * `xstate.after.*` event (the real delay is set to an hour, so it never fires by itself).
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { PersonalType } from '../../api/registration.ts';
import {
  registrationMachine,
  type CreateAccountResult,
  type EmailCheckResult,
  type RegistrationEvent,
  type RegistrationInput,
  type RegistrationRequest,
  type ResendResult,
} from '../../machines/registration/registration.machine.ts';
import type { RegistrationForm } from '../../machines/registration/registration.rules.ts';
import { RegistrationView } from '../../src/features/registration/registration-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { LiveQueue } from './live-queue.ts';

type Snap = SnapshotFrom<typeof registrationMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = RegistrationEvent | SystemEvent;

const TYPES: readonly PersonalType[] = ['individual', 'soleTrader'];
const input: RegistrationInput = { personalTypes: TYPES };
const countries = [
  { code: 'LT', name: 'Lithuania', phoneCode: '370' },
  { code: 'ES', name: 'Spain', phoneCode: '34' },
];
const AFTER_DEBOUNCE = 'xstate.after.emailDebounce.registration.editing.emailWaiting';

const validForm = (email: string): RegistrationForm => ({
  personalType: 'individual',
  firstName: '  Ana   Maria ',
  lastName: 'Pop',
  email,
  password: 'Joined-2026x',
  residenceCountryCode: 'LT',
  phoneCountryCode: '+370',
  phone: '612 34567',
  acceptTerms: true,
});
/** What a user who skipped the names and the terms submits. */
const incompleteForm = (email: string): RegistrationForm => ({ ...validForm(email), firstName: '', lastName: '', acceptTerms: false });

/** Typed so a new registration event fails compilation until it has cases here. */
const userEvents = (s: Snap) =>
  ({
    'EMAIL.CHANGE': [
      { type: 'EMAIL.CHANGE', email: 'ana@ex' },
      { type: 'EMAIL.CHANGE', email: 'Ana@Example.test' },
    ],
    'FORM.SUBMIT': [
      { type: 'FORM.SUBMIT', form: validForm(s.context.email) },
      { type: 'FORM.SUBMIT', form: incompleteForm(s.context.email) },
    ] as [Extract<RegistrationEvent, { type: 'FORM.SUBMIT' }>, Extract<RegistrationEvent, { type: 'FORM.SUBMIT' }>],
    'CODE.RESEND': [{ type: 'CODE.RESEND' }],
  }) satisfies { [K in RegistrationEvent['type']]: Extract<RegistrationEvent, { type: K }>[] };

const answers: Record<string, SystemEvent[]> = {
  checkEmail: [
    { type: 'xstate.done.actor.checkEmail', output: { ok: true, state: 0 } satisfies EmailCheckResult },
    { type: 'xstate.done.actor.checkEmail', output: { ok: true, state: 1 } satisfies EmailCheckResult },
    { type: 'xstate.done.actor.checkEmail', output: { ok: true, state: 3 } satisfies EmailCheckResult },
    { type: 'xstate.done.actor.checkEmail', output: { ok: false, code: 'network' } satisfies EmailCheckResult },
    { type: 'xstate.error.actor.checkEmail', error: new Error('boom') },
  ],
  createAccount: [
    { type: 'xstate.done.actor.createAccount', output: { ok: true } satisfies CreateAccountResult },
    { type: 'xstate.done.actor.createAccount', output: { ok: false, code: 'emailTaken' } satisfies CreateAccountResult },
    { type: 'xstate.done.actor.createAccount', output: { ok: false, code: 'fields', fieldErrors: { phone: 'invalidPhone' } } satisfies CreateAccountResult },
    { type: 'xstate.done.actor.createAccount', output: { ok: false, code: 'closed' } satisfies CreateAccountResult },
    { type: 'xstate.done.actor.createAccount', output: { ok: false, code: 'network' } satisfies CreateAccountResult },
    { type: 'xstate.error.actor.createAccount', error: new Error('boom') },
  ],
  resendCode: [
    { type: 'xstate.done.actor.resendCode', output: { ok: true } satisfies ResendResult },
    { type: 'xstate.done.actor.resendCode', output: { ok: false, code: 'network' } satisfies ResendResult },
    { type: 'xstate.error.actor.resendCode', error: new Error('boom') },
  ],
};

/**
 * The events of a snapshot. To keep the graph small (every edge is a rendered test) a few
 * combinations are left out; every chart transition is still taken (checked below):
 * the e-mail is changed and the form submitted only while no general error is shown, and the
 * incomplete form only before anything else went wrong.
 */
function eventsFor(s: Snap): ModelEvent[] {
  const quiet = s.context.error === null;
  const all: ModelEvent[] = [];
  const u = userEvents(s);
  const [submitValid, submitIncomplete] = u['FORM.SUBMIT'];
  if (quiet) all.push(...u['EMAIL.CHANGE'], submitValid);
  if (quiet && Object.keys(s.context.fieldErrors).length === 0 && (s.context.emailState === null || s.context.emailState === 0)) all.push(submitIncomplete);
  all.push(...u['CODE.RESEND']);
  if (s.matches({ editing: 'emailWaiting' })) all.push({ type: AFTER_DEBOUNCE });
  for (const id of Object.keys(s.children)) all.push(...(answers[id] ?? []));
  return all.filter((e) => s.can(e as RegistrationEvent));
}

const serialize = (s: Snap) => {
  const { personalTypes: _t, ...rest } = s.context;
  return JSON.stringify({ value: s.value, ...rest });
};

const model = new TestModel(registrationMachine, {
  input,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  /** the e-mail typed last, as sent (trimmed, lower case) */
  email: string;
  /** document 1 §4 for that text: null (not checked), 2 (being checked), 0 free, 1 exists, 3 an authorised user's, -1 the check failed */
  emailState: -1 | 0 | 1 | 2 | 3 | null;
  /** the fields showing an error, the e-mail's with its kind */
  fieldErrors: { email?: 'emailTaken' | 'emailEmployee' | 'invalid'; firstName?: true; phone?: true; acceptTerms?: true };
  error: 'closed' | 'network' | 'unknown' | null;
  sentTo: string | null;
  resend: 'idle' | 'sent' | 'failed';
}

/** document 1 §5: the e-mail is checked once it is longer than 5 characters with an @ and a dot */
const checkable = (email: string) => email.trim().length > 5 && email.includes('@') && /@[^@]+\.[^@]+$/.test(email.trim());
const wellFormedEmail = (email: string) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim());

/** What each event calls for, worked out here rather than read from the chart. */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const output = (event as SystemEvent).output as { ok: boolean; code?: string; state?: 0 | 1 | 3 } | undefined;
  switch (event.type) {
    case 'EMAIL.CHANGE': {
      const email = (event as Extract<RegistrationEvent, { type: 'EMAIL.CHANGE' }>).email;
      const { email: _stale, ...rest } = did.fieldErrors;
      Object.assign(did, { email: email.trim().toLowerCase(), emailState: checkable(email) ? 2 : null, fieldErrors: rest });
      return;
    }
    case 'FORM.SUBMIT': {
      const f = (event as Extract<RegistrationEvent, { type: 'FORM.SUBMIT' }>).form;
      const errors: Did['fieldErrors'] = {
        ...(wellFormedEmail(f.email) ? {} : { email: 'invalid' as const }),
        ...(f.firstName.trim() === '' ? { firstName: true as const } : {}),
        ...(f.acceptTerms ? {} : { acceptTerms: true as const }),
      };
      const incomplete = Object.keys(errors).length > 0 || f.lastName.trim() === '';
      if (incomplete) Object.assign(did, { fieldErrors: errors, error: null });
      else if (did.emailState === 1 || did.emailState === 3) Object.assign(did, { fieldErrors: { email: did.emailState === 1 ? 'emailTaken' : 'emailEmployee' }, error: null });
      // sent: a check still pending is dropped (the platform checks the address itself)
      else Object.assign(did, { email: f.email.trim().toLowerCase(), emailState: did.emailState === 2 ? null : did.emailState, fieldErrors: {}, error: null });
      return;
    }
    case 'xstate.done.actor.checkEmail':
      did.emailState = output?.ok ? output.state! : -1;
      return;
    case 'xstate.error.actor.checkEmail':
      did.emailState = -1;
      return;
    case 'xstate.done.actor.createAccount':
      if (output?.ok) Object.assign(did, { sentTo: did.email, resend: 'idle' });
      else if (output?.code === 'emailTaken') Object.assign(did, { emailState: 1, fieldErrors: { email: 'emailTaken' } });
      else if (output?.code === 'fields') Object.assign(did, { fieldErrors: { phone: true }, error: null });
      else did.error = (output?.code as Did['error']) ?? 'unknown';
      return;
    case 'xstate.error.actor.createAccount':
      did.error = 'unknown';
      return;
    case 'xstate.done.actor.resendCode':
      did.resend = output?.ok ? 'sent' : 'failed';
      return;
    case 'xstate.error.actor.resendCode':
      did.resend = 'failed';
      return;
  }
}

function mount() {
  const q = {
    checkEmail: new LiveQueue<{ email: string }, EmailCheckResult>(),
    createAccount: new LiveQueue<{ request: RegistrationRequest }, CreateAccountResult>(),
    resendCode: new LiveQueue<{ email: string }, ResendResult>(),
  };
  const logic = registrationMachine.provide({
    actors: {
      checkEmail: fromPromise(({ input: i, signal }) => q.checkEmail.next(i, signal)),
      createAccount: fromPromise(({ input: i, signal }) => q.createAccount.next(i, signal)),
      resendCode: fromPromise(({ input: i, signal }) => q.resendCode.next(i, signal)),
    },
    delays: { emailDebounce: 3_600_000 },
  });
  const actor = createActor(logic, { input }).start();
  render(
    <I18nProvider i18n={i18n}>
      <RegistrationView actor={actor} personalTypes={TYPES} countries={countries} termsUrl="https://example.test/terms" privacyUrl="https://example.test/privacy" />
    </I18nProvider>,
  );
  const did: Did = { last: null, email: '', emailState: null, fieldErrors: {}, error: null, sentTo: null, resend: 'idle' };
  return { q, actor, did };
}
type Harness = ReturnType<typeof mount>;

const emailField = () => screen.getByLabelText('E-mail address') as HTMLInputElement;
const descriptionOf = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

function stateChecks(h: Harness) {
  /** The form as what the test did says it should look. */
  const form = async (s: Snap) => {
    await screen.findByRole('heading', { name: /open a personal account/i });
    const email = emailField();
    const described = descriptionOf(email);
    const { fieldErrors, emailState } = h.did;
    if (fieldErrors.email === 'emailTaken' || (!fieldErrors.email && emailState === 1)) {
      expect(described).toMatch(/already registered/i);
    } else if (fieldErrors.email === 'emailEmployee' || (!fieldErrors.email && emailState === 3)) {
      expect(described).toMatch(/authorised user of a company/i);
    } else if (fieldErrors.email) {
      expect(email.getAttribute('aria-invalid')).toBe('true');
    } else if (emailState === 0) {
      expect(described).toMatch(/is free/i);
    } else if (emailState === -1) {
      expect(described).toMatch(/could not check.*you can continue/i);
    } else if (emailState === 2) {
      expect(described).toMatch(/checking the e-mail address/i);
    } else {
      expect(described).toBe('');
    }
    // field errors are tied to their fields
    expect(screen.getByLabelText('First name').getAttribute('aria-invalid')).toBe(fieldErrors.firstName ? 'true' : null);
    expect(screen.getByLabelText(/phone number/i).getAttribute('aria-invalid')).toBe(fieldErrors.phone ? 'true' : null);
    expect(screen.getByRole('checkbox', { name: /accept the terms/i }).getAttribute('aria-invalid')).toBe(fieldErrors.acceptTerms ? 'true' : null);
    if (h.did.error === 'closed') expect(screen.getByRole('alert').textContent).toMatch(/registration is closed/i);
    else if (h.did.error === 'network') expect(screen.getByRole('alert').textContent).toMatch(/could not reach the server/i);
    else if (h.did.error === 'unknown') expect(screen.getByRole('alert').textContent).toMatch(/something went wrong/i);
    else expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: /open the account/i }).getAttribute('aria-busy')).toBeNull());
    expectOffered<RegistrationEvent>(s, [{ type: 'EMAIL.CHANGE', email: 'ana@example.test' }, { type: 'FORM.SUBMIT', form: validForm('ana@example.test') }]);
    // the password is kept only while it is sent
    expect(JSON.stringify(s.context)).not.toContain('Joined-2026x');
  };
  const sent = async (s: Snap) => {
    await screen.findByRole('heading', { name: /check your e-mail/i });
    expect(h.did.sentTo).toBe('ana@example.test');
    expect(screen.getByText(new RegExp(`sent an activation link and code to ${h.did.sentTo}`))).toBeTruthy();
    if (h.did.resend === 'sent') expect(screen.getByRole('status').textContent).toMatch(/sent a new activation code/i);
    if (h.did.resend === 'failed') expect(screen.getByRole('alert').textContent).toMatch(/could not send a new code/i);
    if (h.did.resend === 'idle') expect(screen.queryByRole('alert')).toBeNull();
    expectOffered<RegistrationEvent>(s, [{ type: 'CODE.RESEND' }]);
    expect(JSON.stringify(s.context)).not.toContain('Joined-2026x');
  };
  return {
    'editing.emailIdle': async (s: Snap) => {
      await form(s);
      expect(h.q.checkEmail.waiting).toBe(0);
      expect(h.did.emailState).not.toBe(2);
      // a valid form with a free (or unchecked) address is sent, not kept here
      if (h.did.last?.type === 'FORM.SUBMIT') expect(Object.keys(h.did.fieldErrors).length > 0 || h.did.error !== null).toBe(true);
    },
    'editing.emailWaiting': async (s: Snap) => {
      await form(s);
      expect(descriptionOf(emailField())).toMatch(/checking the e-mail address/i);
      expect(h.q.checkEmail.waiting).toBe(0);
    },
    'editing.emailChecking': async (s: Snap) => {
      await form(s);
      expect(descriptionOf(emailField())).toMatch(/checking the e-mail address/i);
      expect(h.q.checkEmail.waiting).toBe(1);
      // sent normalised: trimmed and lower-cased
      expect(h.q.checkEmail.calls.at(-1)).toEqual({ email: 'ana@example.test' });
    },
    submitting: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /open the account/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.createAccount.waiting).toBe(1);
      // names trimmed and collapsed, the plus sign and spaces dropped (document 1 §5)
      expect(h.q.createAccount.calls.at(-1)).toEqual({
        request: {
          personalType: 'individual',
          firstName: 'Ana Maria',
          lastName: 'Pop',
          email: 'ana@example.test',
          password: 'Joined-2026x',
          residenceCountryCode: 'LT',
          phoneCountryCode: '370',
          phone: '61234567',
          acceptTerms: true,
        },
      });
    },
    sent: async (s: Snap) => {
      await sent(s);
      await waitFor(() => expect(screen.getByRole('button', { name: /send the code again/i }).getAttribute('aria-busy')).toBeNull());
    },
    resending: async () => {
      await screen.findByRole('heading', { name: /check your e-mail/i });
      await waitFor(() => expect(screen.getByRole('button', { name: /send the code again/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.resendCode.waiting).toBe(1);
      expect(h.q.resendCode.calls.at(-1)).toEqual({ email: h.did.sentTo });
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function setField(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function eventExecutors(h: Harness) {
  const answer = (queue: LiveQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    record(h.did, e);
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  return {
    'EMAIL.CHANGE': async ({ event }: { event: ModelEvent }) => {
      const wanted = (event as Extract<RegistrationEvent, { type: 'EMAIL.CHANGE' }>).email;
      record(h.did, event);
      // Typing the text the field already holds fires no change: change its case (normalised
      // away; an e-mail field drops surrounding spaces itself).
      const same = emailField().value === wanted;
      act(() => setField('E-mail address', same ? (wanted.toLowerCase() === wanted ? wanted.toUpperCase() : wanted.toLowerCase()) : wanted));
    },
    'FORM.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const f = (event as Extract<RegistrationEvent, { type: 'FORM.SUBMIT' }>).form;
      record(h.did, event);
      act(() => {
        fireEvent.click(screen.getByRole('radio', { name: 'Individual' }));
        setField('First name', f.firstName);
        setField('Last name', f.lastName);
        setField('Password', f.password);
        fireEvent.change(screen.getByLabelText('Country of residence'), { target: { value: f.residenceCountryCode } });
        setField(/phone country code/i, f.phoneCountryCode);
        setField(/phone number/i, f.phone);
        const terms = screen.getByRole('checkbox', { name: /accept the terms/i }) as HTMLInputElement;
        if (terms.checked !== f.acceptTerms) fireEvent.click(terms);
      });
      act(() => fireEvent.click(screen.getByRole('button', { name: /open the account/i })));
    },
    'CODE.RESEND': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      act(() => fireEvent.click(screen.getByRole('button', { name: /send the code again/i })));
    },
    [AFTER_DEBOUNCE]: async ({ event }: { event: ModelEvent }) => {
      act(() => h.actor.send(event as never));
    },
    'xstate.done.actor.checkEmail': answer(h.q.checkEmail),
    'xstate.error.actor.checkEmail': answer(h.q.checkEmail),
    'xstate.done.actor.createAccount': answer(h.q.createAccount),
    'xstate.error.actor.createAccount': answer(h.q.createAccount),
    'xstate.done.actor.resendCode': answer(h.q.resendCode),
    'xstate.error.actor.resendCode': answer(h.q.resendCode),
  };
}

const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('registration model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const name = `#${i} ${events.map((e) => e.type.replace(/^xstate\.(after\.\w+|done\.actor\.\w+|error\.actor\.\w+).*/, '$1')).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`;
    it(name, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      h.actor.stop();
    });
  });

  it('is named registration (the inspector and the audit pack show it by that id)', () => {
    expect(registrationMachine.id).toBe('registration');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(registrationMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(registrationMachine, input, sequences as never);
    const missing = listTransitions(registrationMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
