/**
 * Model-based test of one document upload: paths generated from the document-upload machine's
 * graph drive the REAL DocumentUploadForm through Testing Library (files through the file input,
 * the number and the dates through the details step's fields). The upload call is a test double
 * answered by the paths'
 * `xstate.done.actor.uploadDocument` / `xstate.error.actor.uploadDocument` events. The requirement
 * accepts a passport (one file), a national ID card (front and back) and the internal passport
 * (type 88: front page and registration stamp page); they are identity documents (category 1), so
 * the details step asks for the document number. To keep the graph small (every edge is a rendered
 * test) bad files, bad details, the platform's refusals and cancels are tried on the ID card only;
 * every chart transition is still taken (checked below). A last test uploads with the keyboard
 * only and runs axe on every step; another shows a category without a number (proof of residence).
 *
 * Proof it can fail: I broke the form once on purpose (the platform's VF words not shown on their
 * field): 14 of 103 tests went red; restored since. Again with the details step: the number's
 * error not tied to its field, 7 of 106 red; restored.
 */
import { validationMessage } from '../../src/lib/validation-messages.ts';
import { expectNoAxeViolations } from '../ui/axe.ts';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import {
  documentUploadMachine,
  type DocumentUploadEvent,
  type DocumentUploadInput,
  type UploadRequest,
  type UploadResult,
} from '../../machines/document-upload/document-upload.machine.ts';
import { checkFile, fieldErrorsOf, validateDetails, type FieldError, type FieldErrorCode, type UploadFile, type UploadField } from '../../machines/document-upload/document-upload.rules.ts';
import type { ValidationError } from '../../api/envelope.ts';
import { DocumentUploadForm } from '../../src/features/verification/document-upload-form.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates, recordingExecutors } from './coverage.ts';
import { LiveQueue } from './live-queue.ts';

type Snap = SnapshotFrom<typeof documentUploadMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = DocumentUploadEvent | SystemEvent;

const PASSPORT = 1;
const ID_CARD = 4;
const INTERNAL_PASSPORT = 88;
const input: DocumentUploadInput = {
  categoryId: 1,
  types: [
    { id: PASSPORT, secondPage: null },
    { id: ID_CARD, secondPage: 'back' },
    { id: INTERNAL_PASSPORT, secondPage: 'registrationStamp' },
  ],
  expiryRequired: true,
  today: '2026-03-15',
};
const typeNames = { [PASSPORT]: 'Passport', [ID_CARD]: 'National ID card', [INTERNAL_PASSPORT]: 'Internal passport with registration stamp' };

const file = (name: string, type: string, size: number): UploadFile => ({ name, type, size, content: new Blob([]) });
const FILES = {
  front: file('front.jpg', 'image/jpeg', 120_000),
  second: file('second.pdf', 'application/pdf', 80_000),
  empty: file('empty.png', 'image/png', 0),
  tooLarge: file('huge.jpg', 'image/jpeg', 10_000_001),
  wrongType: file('notes.txt', 'text/plain', 300),
};
// the number as typed (spaces around it are trimmed before it is checked and sent)
const GOOD_DETAILS = { number: ' AB1234567 ', issuedDate: '2024-05-01', expiresDate: '2034-05-01' };
const NO_DETAILS = { number: '   ', issuedDate: '', expiresDate: '' };
const BAD_DETAILS = { number: 'N'.repeat(51), issuedDate: '2026-04-01', expiresDate: '2026-03-01' };

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'TYPE.CHOOSE': [
    { type: 'TYPE.CHOOSE', typeId: ID_CARD },
    { type: 'TYPE.CHOOSE', typeId: PASSPORT },
    { type: 'TYPE.CHOOSE', typeId: INTERNAL_PASSPORT },
    // Continue without a choice
    { type: 'TYPE.CHOOSE', typeId: 0 },
  ],
  'FILE.CHOOSE': [
    { type: 'FILE.CHOOSE', file: FILES.front },
    { type: 'FILE.CHOOSE', file: FILES.second },
    { type: 'FILE.CHOOSE', file: FILES.empty },
    { type: 'FILE.CHOOSE', file: FILES.tooLarge },
    { type: 'FILE.CHOOSE', file: FILES.wrongType },
  ],
  NEXT: [{ type: 'NEXT' }],
  'DETAILS.SUBMIT': [
    { type: 'DETAILS.SUBMIT', details: GOOD_DETAILS },
    { type: 'DETAILS.SUBMIT', details: NO_DETAILS },
    { type: 'DETAILS.SUBMIT', details: BAD_DETAILS },
  ],
  SUBMIT: [{ type: 'SUBMIT' }],
  BACK: [{ type: 'BACK' }],
  RETRY: [{ type: 'RETRY' }],
  CANCEL: [{ type: 'CANCEL' }],
} satisfies { [K in DocumentUploadEvent['type']]: Extract<DocumentUploadEvent, { type: K }>[] };

const vf = (param: string, description: string): SystemEvent => ({
  type: 'xstate.done.actor.uploadDocument',
  output: { ok: false, code: 'fields', errors: [{ param, description }] } satisfies UploadResult,
});
const uploaded: SystemEvent = { type: 'xstate.done.actor.uploadDocument', output: { ok: true } satisfies UploadResult };
const answers: SystemEvent[] = [
  uploaded,
  vf('documentTypeId', 'is not accepted for this requirement'),
  vf('mainDocument', 'the file is not an image or a PDF'),
  vf('additionalDocument', 'the back side is missing'),
  vf('number', 'is required for an identity document'),
  vf('expiresDate', 'must be a later date'),
  vf('comment', 'is too long'),
  { type: 'xstate.done.actor.uploadDocument', output: { ok: false, code: 'refused', detail: 'Access denied' } satisfies UploadResult },
  { type: 'xstate.done.actor.uploadDocument', output: { ok: false, code: 'network' } satisfies UploadResult },
  { type: 'xstate.error.actor.uploadDocument', error: new Error('boom') },
];

const anyError = (s: Snap) => Object.keys(s.context.fieldErrors).length > 0 || s.context.uploadError !== null;
const isIdCard = (s: Snap) => s.context.type?.id === ID_CARD;

/** The events of a snapshot (see the docblock for what is tried where). */
function eventsFor(s: Snap): ModelEvent[] {
  const out: ModelEvent[] = [];
  const clean = !anyError(s);
  if (s.matches({ editing: 'choosingType' })) {
    if (s.context.type === null && clean) out.push(...userEvents['TYPE.CHOOSE']);
    // after BACK (or an error): choose the same type again
    else if (s.context.type) out.push({ type: 'TYPE.CHOOSE', typeId: s.context.type.id });
    else out.push(userEvents['TYPE.CHOOSE'][0]!);
  }
  if (s.matches({ editing: 'front' }) || s.matches({ editing: 'secondPage' })) {
    const field: UploadField = s.matches({ editing: 'front' }) ? 'front' : 'secondPage';
    out.push({ type: 'FILE.CHOOSE', file: field === 'front' ? FILES.front : FILES.second });
    if (isIdCard(s) && s.context.fieldErrors[field] === undefined && (field === 'front' ? s.context.front : s.context.second) === null) {
      out.push({ type: 'FILE.CHOOSE', file: FILES.empty }, { type: 'FILE.CHOOSE', file: FILES.tooLarge }, { type: 'FILE.CHOOSE', file: FILES.wrongType });
    }
    out.push(...userEvents.NEXT);
  }
  if (s.matches({ editing: 'details' })) {
    out.push(userEvents['DETAILS.SUBMIT'][0]!);
    if (isIdCard(s) && clean && s.context.details.issuedDate === '') out.push(userEvents['DETAILS.SUBMIT'][1]!, userEvents['DETAILS.SUBMIT'][2]!);
  }
  if (s.matches({ editing: 'review' })) out.push(...userEvents.SUBMIT);
  if (s.matches('uploading')) out.push(...(isIdCard(s) && clean ? answers : [uploaded]));
  if (s.matches('failed')) out.push(...userEvents.RETRY);
  if (s.matches('editing') || s.matches('failed')) {
    // back one step from everywhere on the ID card's first pass; from the passport's details (one file: details ─▶ front)
    if ((isIdCard(s) && clean) || (s.context.type?.id === PASSPORT && s.matches({ editing: 'details' })) || s.matches('failed')) out.push(...userEvents.BACK);
    if ((s.context.type === null || isIdCard(s)) && clean) out.push(...userEvents.CANCEL);
    if (s.matches('failed') && s.context.uploadError?.code === 'network') out.push(...userEvents.CANCEL);
  }
  return out.filter((e) => s.can(e as DocumentUploadEvent));
}

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    type: s.context.type?.id ?? null,
    front: s.context.front?.name ?? null,
    second: s.context.second?.name ?? null,
    details: s.context.details,
    fieldErrors: s.context.fieldErrors,
    uploadError: s.context.uploadError,
  });

const model = new TestModel(documentUploadMachine, {
  input,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});

type Step = 'choosingType' | 'front' | 'secondPage' | 'details' | 'review' | 'uploading' | 'failed' | 'done' | 'canceled';
/** What the test did, kept apart from the chart's context: the step and the page are expected from it. */
interface Did {
  last: ModelEvent | null;
  /** the step the rules of document 1 §3 and the answers lead to */
  step: Step;
  type: (typeof input.types)[number] | null;
  front: string | null;
  second: string | null;
  details: { number: string; issuedDate: string; expiresDate: string };
  fieldErrors: Partial<Record<UploadField, FieldError>>;
  uploadError: { code: 'network' } | { code: 'refused'; detail: string | null; errors?: ValidationError[] } | null;
}

/** The step a refused field sends the customer back to (the first in the form's order). */
const STEP_OF: [UploadField[], Step][] = [
  [['documentType'], 'choosingType'],
  [['front'], 'front'],
  [['secondPage'], 'secondPage'],
  [['number', 'issuedDate', 'expiresDate'], 'details'],
];

/**
 * What each event calls for, worked out here rather than read from the chart: the steps and what
 * each keeps or clears; the file and date checks themselves are document-upload.rules.ts's
 * (checkFile, validateDetails, fieldErrorsOf: unit-tested on their own).
 */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const without = (...fields: UploadField[]) => Object.fromEntries(Object.entries(did.fieldErrors).filter(([f]) => !fields.includes(f as UploadField))) as Did['fieldErrors'];
  switch (event.type) {
    case 'TYPE.CHOOSE': {
      const type = input.types.find((t) => t.id === (event as Extract<DocumentUploadEvent, { type: 'TYPE.CHOOSE' }>).typeId) ?? null;
      if (!type) {
        did.fieldErrors = { ...did.fieldErrors, documentType: { code: 'required', detail: null } };
        return;
      }
      // another type is another document: the files picked for the previous one go
      if (did.type?.id === type.id) did.fieldErrors = without('documentType');
      else Object.assign(did, { type, front: null, second: null, fieldErrors: {} });
      did.step = 'front';
      return;
    }
    case 'FILE.CHOOSE': {
      const f = (event as Extract<DocumentUploadEvent, { type: 'FILE.CHOOSE' }>).file;
      const field: UploadField = did.step === 'front' ? 'front' : 'secondPage';
      const problem = checkFile(f);
      if (problem) {
        did.fieldErrors = { ...did.fieldErrors, [field]: problem };
        return;
      }
      did.fieldErrors = without(field);
      if (field === 'front') Object.assign(did, { front: f.name, step: did.type?.secondPage ? 'secondPage' : 'details' });
      else Object.assign(did, { second: f.name, step: 'details' });
      return;
    }
    case 'NEXT':
      if (did.step === 'front' && did.front && !did.fieldErrors.front) did.step = did.type?.secondPage ? 'secondPage' : 'details';
      else if (did.step === 'secondPage' && did.second && !did.fieldErrors.secondPage) did.step = 'details';
      return;
    case 'DETAILS.SUBMIT': {
      const details = (event as Extract<DocumentUploadEvent, { type: 'DETAILS.SUBMIT' }>).details;
      const errors = validateDetails(details, true, input.expiryRequired, input.today);
      Object.assign(did, { details, fieldErrors: { ...without('number', 'issuedDate', 'expiresDate'), ...errors } });
      if (Object.keys(errors).length === 0) did.step = 'review';
      return;
    }
    case 'SUBMIT':
    case 'RETRY':
      Object.assign(did, { step: 'uploading', uploadError: null });
      return;
    case 'BACK':
      did.step = ({ front: 'choosingType', secondPage: 'front', details: did.type?.secondPage ? 'secondPage' : 'front', review: 'details', failed: 'review' } as Record<string, Step>)[did.step] ?? did.step;
      return;
    case 'CANCEL':
      did.step = 'canceled';
      return;
    case 'xstate.done.actor.uploadDocument': {
      const out = (event as SystemEvent).output as UploadResult;
      if (out.ok) {
        did.step = 'done';
        return;
      }
      if (out.code === 'fields') {
        const { fieldErrors, other } = fieldErrorsOf(out.errors);
        const back = STEP_OF.find(([fields]) => fields.some((f) => fieldErrors[f]));
        if (back) {
          const joined = other.map((e) => `${e.param}: ${e.description}`).join('\n');
          Object.assign(did, { step: back[1], fieldErrors: { ...did.fieldErrors, ...fieldErrors }, uploadError: other.length > 0 ? { code: 'refused', detail: joined, errors: other } : null });
        } else Object.assign(did, { step: 'failed', uploadError: { code: 'refused', detail: out.errors.map((e) => `${e.param}: ${e.description}`).join('\n'), errors: out.errors } });
        return;
      }
      Object.assign(did, { step: 'failed', uploadError: out.code === 'network' ? { code: 'network' } : { code: 'refused', detail: out.detail } });
      return;
    }
    case 'xstate.error.actor.uploadDocument':
      Object.assign(did, { step: 'failed', uploadError: { code: 'network' } });
      return;
  }
}

function mount() {
  const q = new LiveQueue<UploadRequest, UploadResult>();
  const logic = documentUploadMachine.provide({ actors: { uploadDocument: fromPromise(({ input: request, signal }) => q.next(request, signal)) } });
  const actor = createActor(logic, { input }).start();
  // Wrong types are offered to the form too: the browser's accept filter is only a hint.
  const user = userEvent.setup({ applyAccept: false, delay: null });
  const view = render(
    <I18nProvider i18n={i18n}>
      <main>
        <DocumentUploadForm actor={actor} typeNames={typeNames} />
      </main>
    </I18nProvider>,
  );
  const did: Did = { last: null, step: 'choosingType', type: null, front: null, second: null, details: { number: '', issuedDate: '', expiresDate: '' }, fieldErrors: {}, uploadError: null };
  return { q, actor, user, container: view.container, did };
}
type Harness = ReturnType<typeof mount>;

const ERROR_TEXT: Record<Exclude<FieldErrorCode, 'platform'>, string> = {
  fileEmpty: 'The file is empty. Choose another file.',
  fileTooLarge: 'The file is larger than 10 MB. Choose a smaller file.',
  fileType: 'Choose a JPEG, PNG or PDF file.',
  required: 'This is required.',
  tooLong: 'Use at most 50 characters.',
  invalidDate: 'Enter a valid date.',
  issuedInFuture: 'The issue date cannot be in the future.',
  expired: 'The document has expired. Upload a valid document.',
  expiresBeforeIssued: 'The expiry date must be after the issue date.',
};
const heading = () => screen.getByRole('heading', { level: 2 });
const button = (name: string) => screen.getByRole('button', { name });
const fileInput = (h: Harness) => h.container.querySelector<HTMLInputElement>('input[type="file"]')!;

/** The field's error (client code or the platform's words), tied to the control. */
function expectFieldError(h: Harness, field: UploadField, control: HTMLElement) {
  const error = h.did.fieldErrors[field];
  if (!error) {
    expect(control.getAttribute('aria-invalid')).toBeNull();
    return;
  }
  const text = error.code === 'platform' ? (error.error ? validationMessage(error.error) : error.detail!) : ERROR_TEXT[error.code];
  expect(control.getAttribute('aria-invalid')).toBe('true');
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ');
  expect(ids.map((id) => document.getElementById(id)?.textContent)).toContain(text);
}

/** The platform's errors of no field, shown with the form. */
function expectOtherErrors(h: Harness) {
  const err = h.did.uploadError;
  // The view words each VF error by its code (src/lib/validation-messages.ts); these doubles have none, so their description.
  if (err?.code === 'refused') expect(within(screen.getByRole('alert')).getByText(err.errors?.length ? validationMessage(err.errors[0]!) : err.detail!)).toBeTruthy();
  else expect(screen.queryByRole('alert')).toBeNull();
}

function stateChecks(h: Harness) {
  const fileStep = (field: 'front' | 'secondPage') => async (s: Snap) => {
    expect(h.did.step).toBe(field);
    const second = h.did.type?.secondPage ?? null;
    const title = field === 'front' ? (second ? 'Upload the front page' : 'Upload the document') : second === 'back' ? 'Upload the back side' : 'Upload the registration stamp page';
    await waitFor(() => expect(heading().textContent).toBe(title));
    // a new step: its heading has focus; a refused file: focus stays where the customer was
    if (!h.did.fieldErrors[field]) expect(document.activeElement).toBe(heading());
    expect(screen.getByText(typeNames[h.did.type!.id as keyof typeof typeNames])).toBeTruthy();
    const label = field === 'front' ? (second ? 'Front page' : 'Document file') : second === 'back' ? 'Back side' : 'Registration stamp page';
    const control = screen.getByLabelText(label);
    expect(control).toBe(fileInput(h));
    expect(control.getAttribute('accept')).toBe('image/jpeg,image/png,application/pdf');
    expectFieldError(h, field, control);
    const kept = field === 'front' ? h.did.front : h.did.second;
    const keepable = kept !== null && h.did.fieldErrors[field] === undefined;
    expect(screen.queryByText(`Chosen: ${kept}`) !== null).toBe(keepable);
    expect(screen.queryByRole('button', { name: 'Continue' }) !== null).toBe(keepable);
    expectOtherErrors(h);
    expectOffered<DocumentUploadEvent>(s, [{ type: 'FILE.CHOOSE', file: FILES.front }, { type: 'BACK' }, { type: 'CANCEL' }]);
  };
  return {
    'editing.choosingType': async (s: Snap) => {
      expect(h.did.step).toBe('choosingType');
      await waitFor(() => expect(heading().textContent).toBe('Choose the document'));
      expectOffered<DocumentUploadEvent>(s, [{ type: 'TYPE.CHOOSE', typeId: PASSPORT }, { type: 'CANCEL' }]);
      const select = screen.getByLabelText('Document type') as HTMLSelectElement;
      expect([...select.options].map((o) => o.text)).toEqual(['Choose a document type', 'Passport', 'National ID card', 'Internal passport with registration stamp']);
      expectFieldError(h, 'documentType', select);
      expect(button('Cancel')).toBeTruthy();
      expectOtherErrors(h);
    },
    'editing.front': fileStep('front'),
    'editing.secondPage': fileStep('secondPage'),
    'editing.details': async (s: Snap) => {
      expect(h.did.step).toBe('details');
      await waitFor(() => expect(heading().textContent).toBe('Document details'));
      if (!h.did.fieldErrors.number && !h.did.fieldErrors.issuedDate && !h.did.fieldErrors.expiresDate) expect(document.activeElement).toBe(heading());
      expectOffered<DocumentUploadEvent>(s, [{ type: 'DETAILS.SUBMIT', details: GOOD_DETAILS }, { type: 'BACK' }, { type: 'CANCEL' }]);
      const number = screen.getByLabelText('Document number');
      expect(number.getAttribute('aria-required')).toBe('true');
      expect(number.getAttribute('maxlength')).toBe('50');
      expectFieldError(h, 'number', number);
      expectFieldError(h, 'issuedDate', screen.getByLabelText('Issue date'));
      expectFieldError(h, 'expiresDate', screen.getByLabelText('Expiry date'));
      expect(screen.getByLabelText('Expiry date').getAttribute('aria-required')).toBe('true');
      expectOtherErrors(h);
    },
    'editing.review': async (s: Snap) => {
      expect(h.did.step).toBe('review');
      await waitFor(() => expect(heading().textContent).toBe('Check and upload'));
      await waitFor(() => expect(button('Upload').getAttribute('aria-busy')).toBeNull());
      const facts = [...h.container.querySelectorAll('dd')].map((dd) => dd.textContent);
      const type = h.did.type!;
      expect(facts).toEqual([
        typeNames[type.id as keyof typeof typeNames],
        GOOD_DETAILS.number.trim(),
        h.did.front,
        ...(type.secondPage ? [h.did.second] : []),
        h.did.details.issuedDate,
        h.did.details.expiresDate,
      ]);
      expect(screen.queryByRole('alert')).toBeNull();
      expectOffered<DocumentUploadEvent>(s, [{ type: 'SUBMIT' }, { type: 'BACK' }, { type: 'CANCEL' }]);
    },
    uploading: async () => {
      expect(h.did.step).toBe('uploading');
      await waitFor(() => expect(button('Upload').getAttribute('aria-busy')).toBe('true'));
      expect(h.q.waiting).toBe(1);
      // no cancel while the platform may already hold the files
      expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
      const request = h.q.calls.at(-1)!;
      const type = h.did.type!;
      expect({ ...request, front: (request.front as File).name, second: request.second ? (request.second as File).name : null }).toEqual({
        categoryId: 1,
        documentTypeId: type.id,
        front: h.did.front,
        second: type.secondPage ? h.did.second : null,
        secondPage: type.secondPage,
        number: GOOD_DETAILS.number.trim(),
        issuedDate: GOOD_DETAILS.issuedDate,
        expiresDate: GOOD_DETAILS.expiresDate,
      });
    },
    failed: async (s: Snap) => {
      expect(h.did.step).toBe('failed');
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('The document was not uploaded')).toBeTruthy();
      const err = h.did.uploadError!;
      expectOffered<DocumentUploadEvent>(s, [{ type: 'RETRY' }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(within(alert).getByText(err.code === 'network' ? 'The connection failed. Try again.' : 'The upload was refused.')).toBeTruthy();
      if (err.code === 'refused') expect(within(alert).getByText(err.errors?.length ? validationMessage(err.errors[0]!) : err.detail!)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(button('Try again')));
      expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    },
    done: async () => {
      expect(h.did.step).toBe('done');
      expect(await screen.findByText('The document was uploaded')).toBeTruthy();
      expect(screen.getByText('We will check it and let you know.')).toBeTruthy();
      expect(h.q.waiting).toBe(0);
    },
    canceled: async () => {
      expect(h.did.step).toBe('canceled');
      expect(await screen.findByText('The upload was canceled.')).toBeTruthy();
      expect(screen.queryByRole('button')).toBeNull();
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  return recordingExecutors<ModelEvent>(eventExecutorsOf(h), (event) => record(h.did, event));
}

function eventExecutorsOf(h: Harness) {
  return {
    'TYPE.CHOOSE': async ({ event }: { event: ModelEvent }) => {
      const typeId = (event as Extract<DocumentUploadEvent, { type: 'TYPE.CHOOSE' }>).typeId;
      await h.user.selectOptions(screen.getByLabelText('Document type'), typeId === 0 ? '' : String(typeId));
      await h.user.click(button('Continue'));
    },
    'FILE.CHOOSE': async ({ event }: { event: ModelEvent }) => {
      const f = (event as Extract<DocumentUploadEvent, { type: 'FILE.CHOOSE' }>).file;
      const real = new File([f.size > 0 ? 'x' : ''], f.name, { type: f.type });
      // the size the browser reports (no 10 MB buffer in the test)
      Object.defineProperty(real, 'size', { value: f.size });
      await h.user.upload(fileInput(h), real);
    },
    NEXT: async () => h.user.click(button('Continue')),
    'DETAILS.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const details = (event as Extract<DocumentUploadEvent, { type: 'DETAILS.SUBMIT' }>).details;
      // change events: a browser's maxlength stops typing past 50 characters, not a pasted or scripted value
      fireEvent.change(screen.getByLabelText('Document number'), { target: { value: details.number } });
      fireEvent.change(screen.getByLabelText('Issue date'), { target: { value: details.issuedDate } });
      fireEvent.change(screen.getByLabelText('Expiry date'), { target: { value: details.expiresDate } });
      await h.user.click(button('Continue'));
    },
    SUBMIT: async () => h.user.click(button('Upload')),
    BACK: async () => h.user.click(button('Back')),
    RETRY: async () => h.user.click(button('Try again')),
    CANCEL: async () => h.user.click(button('Cancel')),
    'xstate.done.actor.uploadDocument': async ({ event }: { event: ModelEvent }) => {
      await act(async () => h.q.answer((event as SystemEvent).output as UploadResult));
    },
    'xstate.error.actor.uploadDocument': async ({ event }: { event: ModelEvent }) => {
      await act(async () => h.q.fail((event as SystemEvent).error));
    },
  };
}

const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const short = (e: ModelEvent): string => {
  if (e.type === 'TYPE.CHOOSE') return `type(${e.typeId})`;
  if (e.type === 'FILE.CHOOSE') return `file(${e.file.name})`;
  if (e.type === 'DETAILS.SUBMIT') return `details(${e.details.number.trim().slice(0, 10) || '-'}/${e.details.issuedDate || '-'}/${e.details.expiresDate || '-'})`;
  if (e.type.startsWith('xstate.error')) return 'error.upload';
  const out = (e as SystemEvent).output as UploadResult | undefined;
  if (out) return out.ok ? 'done.upload(ok)' : `done.upload(${out.code === 'fields' ? out.errors[0]!.param : out.code})`;
  return e.type;
};

describe('document upload model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    it(`#${i} ${events.map(short).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      h.actor.stop();
    });
  });

  it('is named documentUpload (the inspector and the audit pack show it by that id)', () => {
    expect(documentUploadMachine.id).toBe('documentUpload');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(documentUploadMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(documentUploadMachine, input, sequences as never);
    const missing = listTransitions(documentUploadMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });
});

describe('document upload form: keyboard and axe', () => {
  it('uploads an ID card with the keyboard only, without axe violations', async () => {
    const h = mount();
    await expectNoAxeViolations('choosing the type', h.container);
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Document type'));
    await h.user.selectOptions(screen.getByLabelText('Document type'), String(ID_CARD));
    await h.user.tab();
    expect(document.activeElement).toBe(button('Continue'));
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(heading().textContent).toBe('Upload the front page'));
    await h.user.tab();
    expect(document.activeElement).toBe(fileInput(h));
    await h.user.upload(fileInput(h), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Choose a JPEG, PNG or PDF file.')).toBeTruthy();
    await expectNoAxeViolations('a refused file', h.container);
    await h.user.upload(fileInput(h), new File(['x'], 'front.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(heading().textContent).toBe('Upload the back side'));
    await h.user.upload(fileInput(h), new File(['x'], 'back.png', { type: 'image/png' }));
    await waitFor(() => expect(heading().textContent).toBe('Document details'));
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Document number'));
    await h.user.keyboard('{Enter}');
    expect((await screen.findAllByText('This is required.')).length).toBe(3);
    await expectNoAxeViolations('details with errors', h.container);
    screen.getByLabelText('Document number').focus();
    await h.user.keyboard('ID 778899');
    fireEvent.change(screen.getByLabelText('Issue date'), { target: { value: GOOD_DETAILS.issuedDate } });
    fireEvent.change(screen.getByLabelText('Expiry date'), { target: { value: GOOD_DETAILS.expiresDate } });
    screen.getByLabelText('Expiry date').focus();
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(heading().textContent).toBe('Check and upload'));
    await expectNoAxeViolations('review', h.container);
    await h.user.tab();
    expect(document.activeElement).toBe(button('Upload'));
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(h.q.waiting).toBe(1));
    expect(h.q.calls.at(-1)!.number).toBe('ID 778899');
    await act(async () => h.q.answer({ ok: false, code: 'network' }));
    await waitFor(() => expect(document.activeElement).toBe(button('Try again')));
    await expectNoAxeViolations('failed', h.container);
    await h.user.keyboard(' ');
    await waitFor(() => expect(h.q.waiting).toBe(1));
    await act(async () => h.q.answer({ ok: true }));
    expect(await screen.findByText('The document was uploaded')).toBeTruthy();
    await expectNoAxeViolations('done', h.container);
    h.actor.stop();
  });

  it('asks no number for a category without one (proof of residence) and sends none', async () => {
    const q = new LiveQueue<UploadRequest, UploadResult>();
    const logic = documentUploadMachine.provide({ actors: { uploadDocument: fromPromise(({ input: request, signal }) => q.next(request, signal)) } });
    const actor = createActor(logic, { input: { categoryId: 2, types: [{ id: 30, secondPage: null }], expiryRequired: false, today: '2026-03-15' } }).start();
    const user = userEvent.setup({ delay: null });
    const view = render(
      <I18nProvider i18n={i18n}>
        <main>
          <DocumentUploadForm actor={actor} typeNames={{ 30: 'Utility bill' }} />
        </main>
      </I18nProvider>,
    );
    await user.selectOptions(screen.getByLabelText('Document type'), '30');
    await user.click(button('Continue'));
    await user.upload(view.container.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['x'], 'bill.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(heading().textContent).toBe('Document dates'));
    expect(screen.queryByLabelText('Document number')).toBeNull();
    fireEvent.change(screen.getByLabelText('Issue date'), { target: { value: '2026-02-01' } });
    await user.click(button('Continue'));
    await waitFor(() => expect(heading().textContent).toBe('Check and upload'));
    expect(screen.queryByText('Document number')).toBeNull();
    await user.click(button('Upload'));
    await waitFor(() => expect(q.waiting).toBe(1));
    expect(q.calls.at(-1)!).toMatchObject({ categoryId: 2, documentTypeId: 30, number: null, issuedDate: '2026-02-01', expiresDate: null });
    await act(async () => q.answer({ ok: true }));
    expect(await screen.findByText('The document was uploaded')).toBeTruthy();
    actor.stop();
  });
});
