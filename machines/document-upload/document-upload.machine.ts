/**
 * The upload of one document for one requirement (identity, proof of residence, a limit document...):
 * document 1 §3 (categories, number, issued and expiry dates) and issue 5 (types 4 and 5 need a front
 * and a back file; type 88, RU and UA only, the front page and the registration stamp page).
 *
 * ```
 * editing (CANCEL anywhere here ─▶ canceled)
 *   choosingType ─TYPE.CHOOSE [offered]─▶ front ─FILE.CHOOSE [acceptable, second page needed]─▶ secondPage
 *        ▲                                  │  └─FILE.CHOOSE [acceptable]─▶ details ◀─FILE.CHOOSE [acceptable]─┘
 *        └──────────────── BACK ────────────┘   FILE.CHOOSE otherwise: the file's error, stays
 *   front / secondPage ─NEXT [a file picked before]─▶ the next step (after coming back with BACK)
 *   details ─DETAILS.SUBMIT [valid]─▶ review ─SUBMIT─▶ uploading
 *   BACK goes one step back (details ─▶ secondPage or front; review ─▶ details)
 * uploading ─ok─▶ done
 *           ─VF─▶ the first step with a refused field (type, front, second page, details: number
 *                 or dates), error on it
 *           ─refused / no answer─▶ failed ─RETRY─▶ uploading ; failed ─BACK─▶ review ; ─CANCEL─▶ canceled
 * ```
 *
 * The details step asks for the document number only when the category needs one (identity documents,
 * numberRequiredFor: the platform refuses an identity document without it), and the dates.
 * The front page is asked first for every type, then the second file (for type 88 the stamp page
 * comes second: the front page identifies the document, as for the other types). Files are checked
 * here before sending (checkFile: non-empty, at most 10 MB, JPEG, PNG or PDF); the platform checks
 * them again by content. No CANCEL while uploading: the platform may already hold the files, and
 * the answer (bounded by the request time-out) says whether it does.
 * Pure: `uploadDocument` is provided by the app; expected failures are `{ ok: false, code }`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ValidationError } from '../../api/envelope.ts';
import {
  checkFile,
  fieldErrorsOf,
  type FieldError,
  type FieldErrors,
  numberRequiredFor,
  validateDetails,
  type DocumentDetails,
  type SecondPage,
  type UploadDocumentType,
  type UploadField,
  type UploadFile,
} from './document-upload.rules.ts';

export interface DocumentUploadInput {
  /** the document category of the requirement (document 1 §3) */
  categoryId: number;
  /** the types it accepts (from the document type dictionary), at least one */
  types: UploadDocumentType[];
  /** the expiry date is required (identity documents) */
  expiryRequired: boolean;
  /** yyyy-mm-dd: the dates are checked against it */
  today: string;
}

export interface UploadRequest {
  categoryId: number;
  documentTypeId: number;
  front: Blob;
  /** the back or the registration stamp page; null for one-file types */
  second: Blob | null;
  secondPage: SecondPage | null;
  /** trimmed; null when the category asks for no number */
  number: string | null;
  issuedDate: string;
  expiresDate: string | null;
}

/** errors: the platform's VF list, which the view words by code (detail is its English) */
export type UploadFailure = { code: 'network' } | { code: 'refused'; detail: string | null; errors?: readonly ValidationError[] };
export type UploadResult = { ok: true } | { ok: false; code: 'fields'; errors: ValidationError[] } | ({ ok: false } & UploadFailure);

export type DocumentUploadEvent =
  | { type: 'TYPE.CHOOSE'; typeId: number }
  | { type: 'FILE.CHOOSE'; file: UploadFile }
  /** go on with the file picked before (after coming back to its step) */
  | { type: 'NEXT' }
  | { type: 'DETAILS.SUBMIT'; details: DocumentDetails }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CANCEL' };

export interface DocumentUploadContext extends DocumentUploadInput {
  type: UploadDocumentType | null;
  front: UploadFile | null;
  second: UploadFile | null;
  /** the category asks for the document number (numberRequiredFor) */
  numberRequired: boolean;
  details: DocumentDetails;
  fieldErrors: FieldErrors;
  /** why the upload failed (failed), or platform errors of no field (shown with the form) */
  uploadError: UploadFailure | null;
}

const joined = (errors: readonly ValidationError[]) => errors.map((e) => `${e.param}: ${e.description}`).join('\n');

/** The VF answer's field errors (only called with a `fields` result). */
const vfOf = (r: UploadResult) => fieldErrorsOf(!r.ok && r.code === 'fields' ? r.errors : []);

export const documentUploadMachine = setup({
  types: {
    context: {} as DocumentUploadContext,
    events: {} as DocumentUploadEvent,
    input: {} as DocumentUploadInput,
  },
  actors: {
    uploadDocument: fromPromise<UploadResult, UploadRequest>(async () => {
      throw new Error('uploadDocument is provided by the app');
    }),
  },
  guards: {
    isOfferedType: ({ context }, p: { typeId: number }) => context.types.some((t) => t.id === p.typeId),
    isAcceptableFile: (_, file: UploadFile) => checkFile(file) === null,
    needsSecondPage: ({ context }) => context.type?.secondPage != null,
    /** a file kept from before, with no error on it (a platform refusal means: pick another) */
    hasFront: ({ context }) => context.front !== null && context.fieldErrors.front === undefined,
    hasFrontAndSecondPageNeeded: ({ context }) => context.front !== null && context.fieldErrors.front === undefined && context.type?.secondPage != null,
    hasSecond: ({ context }) => context.second !== null && context.fieldErrors.secondPage === undefined,
    isAcceptableFileAndSecondPageNeeded: ({ context }, file: UploadFile) => checkFile(file) === null && context.type?.secondPage != null,
    areDetailsValid: ({ context }, details: DocumentDetails) =>
      Object.keys(validateDetails(details, context.numberRequired, context.expiryRequired, context.today)).length === 0,
    isUploaded: (_, r: UploadResult) => r.ok,
    isRefusedOn: (_, p: { result: UploadResult; fields: UploadField[] }) => p.fields.some((f) => vfOf(p.result).fieldErrors[f] !== undefined),
  },
  actions: {
    chooseType: assign(({ context }, p: { typeId: number }) => {
      const type = context.types.find((t) => t.id === p.typeId) ?? null;
      // Another type is another document: its files are not the ones picked for the previous type.
      const same = context.type?.id === type?.id;
      const { documentType: _cleared, ...rest } = context.fieldErrors;
      return same ? { fieldErrors: rest } : { type, front: null, second: null, fieldErrors: {} };
    }),
    rejectType: assign(({ context }) => ({ fieldErrors: { ...context.fieldErrors, documentType: { code: 'required', detail: null } satisfies FieldError } })),
    storeFront: assign(({ context }, file: UploadFile) => {
      const { front: _cleared, ...rest } = context.fieldErrors;
      return { front: file, fieldErrors: rest };
    }),
    storeSecond: assign(({ context }, file: UploadFile) => {
      const { secondPage: _cleared, ...rest } = context.fieldErrors;
      return { second: file, fieldErrors: rest };
    }),
    rejectFile: assign(({ context }, p: { field: 'front' | 'secondPage'; file: UploadFile }) => ({
      fieldErrors: { ...context.fieldErrors, [p.field]: checkFile(p.file) ?? ({ code: 'fileType', detail: null } satisfies FieldError) },
    })),
    storeDetails: assign(({ context }, details: DocumentDetails) => {
      const { number: _n, issuedDate: _i, expiresDate: _e, ...rest } = context.fieldErrors;
      return { details, fieldErrors: { ...rest, ...validateDetails(details, context.numberRequired, context.expiryRequired, context.today) } };
    }),
    startUpload: assign({ uploadError: null }),
    storeFieldErrors: assign(({ context }, r: UploadResult) => {
      const { fieldErrors, other } = vfOf(r);
      return {
        fieldErrors: { ...context.fieldErrors, ...fieldErrors },
        uploadError: other.length > 0 ? ({ code: 'refused', detail: joined(other), errors: other } as UploadFailure) : null,
      };
    }),
    storeFailure: assign((_, r: UploadResult) => {
      if (r.ok) return {};
      // A VF list of no form field reads as a refusal with its `param: description` lines (document 1 §5).
      if (r.code === 'fields') return { uploadError: { code: 'refused', detail: joined(r.errors), errors: r.errors } as UploadFailure };
      return { uploadError: r.code === 'network' ? ({ code: 'network' } as UploadFailure) : ({ code: 'refused', detail: r.detail } as UploadFailure) };
    }),
    storeNetworkFailure: assign({ uploadError: { code: 'network' } as UploadFailure }),
  },
}).createMachine({
  id: 'documentUpload',
  description: 'The customer uploads one document for one requirement (identity, proof of address, a limit document...): its type, its files, its number and dates.',
  meta: { spec: ['document 1 §3', 'document 1 §5', 'document 2 §5', 'document 3 §3'] },
  context: ({ input }) => ({
    ...input,
    type: null,
    front: null,
    second: null,
    numberRequired: numberRequiredFor(input.categoryId),
    details: { number: '', issuedDate: '', expiresDate: '' },
    fieldErrors: {},
    uploadError: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      description: 'The customer is describing the document and picking its files; nothing has been sent yet.',
      initial: 'choosingType',
      on: { CANCEL: { target: 'canceled', description: 'The customer gives up; nothing is sent.' } },
      states: {
        choosingType: {
          description: 'The customer chooses the type of document among those the requirement accepts.',
          on: {
            'TYPE.CHOOSE': [
              {
                guard: { type: 'isOfferedType', params: ({ event }) => event },
                target: 'front',
                actions: { type: 'chooseType', params: ({ event }) => event },
                description: 'An accepted type is chosen; the customer goes on to its front page (files picked for another type are dropped).',
              },
              { actions: 'rejectType', description: 'The type is not accepted for this requirement; the customer is told to choose one.' },
            ],
          },
        },
        front: {
          description: 'The customer picks the file of the front page (or the only page) of the document.',
          on: {
            'FILE.CHOOSE': [
              {
                guard: { type: 'isAcceptableFileAndSecondPageNeeded', params: ({ event }) => event.file },
                target: 'secondPage',
                actions: { type: 'storeFront', params: ({ event }) => event.file },
                description: 'The file is acceptable and this type needs a second page; the customer goes on to it.',
              },
              {
                guard: { type: 'isAcceptableFile', params: ({ event }) => event.file },
                target: 'details',
                actions: { type: 'storeFront', params: ({ event }) => event.file },
                description: 'The file is acceptable and this type has one page; the customer goes on to the details.',
              },
              {
                actions: { type: 'rejectFile', params: ({ event }) => ({ field: 'front' as const, file: event.file }) },
                description: 'The file is empty, too large or not a JPEG, PNG or PDF; the customer is told and picks another.',
              },
            ],
            // Back here from a later step: go on with the file picked before.
            NEXT: [
              { guard: 'hasFrontAndSecondPageNeeded', target: 'secondPage', description: 'The customer keeps the front page picked before and goes on to the second page.' },
              { guard: 'hasFront', target: 'details', description: 'The customer keeps the front page picked before and goes on to the details.' },
            ],
            BACK: { target: 'choosingType', description: 'The customer goes back to choose another type.' },
          },
        },
        secondPage: {
          description: 'The customer picks the second file: the back of an ID card or licence (types 4 and 5), or the registration stamp page (type 88).',
          meta: { spec: ['document 2 §5'] },
          on: {
            'FILE.CHOOSE': [
              {
                guard: { type: 'isAcceptableFile', params: ({ event }) => event.file },
                target: 'details',
                actions: { type: 'storeSecond', params: ({ event }) => event.file },
                description: 'The file is acceptable; the customer goes on to the details.',
              },
              {
                actions: { type: 'rejectFile', params: ({ event }) => ({ field: 'secondPage' as const, file: event.file }) },
                description: 'The file is empty, too large or not a JPEG, PNG or PDF; the customer is told and picks another.',
              },
            ],
            NEXT: { guard: 'hasSecond', target: 'details', description: 'The customer keeps the second page picked before and goes on to the details.' },
            BACK: { target: 'front', description: 'The customer goes back to the front page.' },
          },
        },
        details: {
          description: "The customer enters the document's number (when the category needs one), its issue date and its expiry date.",
          on: {
            'DETAILS.SUBMIT': [
              {
                guard: { type: 'areDetailsValid', params: ({ event }) => event.details },
                target: 'review',
                actions: { type: 'storeDetails', params: ({ event }) => event.details },
                description: 'The number and dates are complete and valid; the customer goes on to review the upload.',
              },
              {
                actions: { type: 'storeDetails', params: ({ event }) => event.details },
                description: 'The number or a date is missing or invalid; the errors are shown on them and the step stays.',
              },
            ],
            BACK: [
              { guard: 'needsSecondPage', target: 'secondPage', description: 'The type has a second page; the customer goes back to it.' },
              { target: 'front', description: 'The type has one page; the customer goes back to the front page.' },
            ],
          },
        },
        review: {
          description: 'The customer reviews the type, files and details before sending them.',
          on: {
            SUBMIT: { target: '#documentUpload.uploading', description: 'The customer sends the document to the platform.' },
            BACK: { target: 'details', description: 'The customer goes back to change the details.' },
          },
        },
      },
    },
    uploading: {
      description: 'The document is being sent to the platform; the customer waits and cannot cancel.',
      tags: ['busy'],
      entry: 'startUpload',
      invoke: {
        id: 'uploadDocument',
        src: 'uploadDocument',
        input: ({ context }) => ({
          categoryId: context.categoryId,
          documentTypeId: context.type?.id ?? 0,
          front: context.front?.content ?? new Blob([]),
          second: context.type?.secondPage ? (context.second?.content ?? null) : null,
          secondPage: context.type?.secondPage ?? null,
          number: context.numberRequired ? context.details.number.trim() : null,
          issuedDate: context.details.issuedDate.trim(),
          expiresDate: context.details.expiresDate.trim() || null,
        }),
        onDone: [
          { guard: { type: 'isUploaded', params: ({ event }) => event.output }, target: 'done', description: 'The platform holds the document; it will be reviewed.' },
          // VF: back to the first step with a refused field, the platform's words on that field.
          {
            guard: { type: 'isRefusedOn', params: ({ event }) => ({ result: event.output, fields: ['documentType'] }) },
            target: 'editing.choosingType',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: "The platform refused the document type; the customer is taken back to it with the platform's words.",
          },
          {
            guard: { type: 'isRefusedOn', params: ({ event }) => ({ result: event.output, fields: ['front'] }) },
            target: 'editing.front',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: "The platform refused the front page file; the customer is taken back to pick another, with the platform's words.",
          },
          {
            guard: { type: 'isRefusedOn', params: ({ event }) => ({ result: event.output, fields: ['secondPage'] }) },
            target: 'editing.secondPage',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: "The platform refused the second page file; the customer is taken back to pick another, with the platform's words.",
          },
          {
            guard: { type: 'isRefusedOn', params: ({ event }) => ({ result: event.output, fields: ['number', 'issuedDate', 'expiresDate'] }) },
            target: 'editing.details',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: "The platform refused the number or a date; the customer is taken back to the details with the platform's words.",
          },
          {
            target: 'failed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused the upload for a reason tied to no field, or was not reached; the reason is kept to show.',
          },
        ],
        onError: { target: 'failed', actions: 'storeNetworkFailure', description: 'No answer came (network failure or time-out); it reads as a network failure.' },
      },
    },
    failed: {
      description: 'The document was not uploaded (refused or no answer); the customer can try again, go back to the review, or cancel.',
      on: {
        RETRY: { target: 'uploading', description: 'The customer sends the same document again.' },
        BACK: { target: 'editing.review', description: 'The customer goes back to the review to change something.' },
        CANCEL: { target: 'canceled', description: 'The customer gives up after the failure.' },
      },
    },
    done: { type: 'final', description: 'The document is uploaded and awaits review; the flow ends.' },
    canceled: { type: 'final', description: 'The customer left without uploading the document.' },
  },
});

export type DocumentUploadMachine = typeof documentUploadMachine;
