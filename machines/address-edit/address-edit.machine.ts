/**
 * Creating or replacing an address with the documents that prove it (document 1 §3 Address, §7
 * "customer address create or replace (payload plus addressStatus)"; issue 5: documents as
 * mainDocument, additionalDocument and relationshipDocument).
 *
 * ```
 * form ─FORM.SUBMIT [valid]─▶ documents ─DOCUMENTS.SUBMIT [valid]─▶ review ─SAVE─▶ saving
 *   │  └─FORM.SUBMIT otherwise: errors on the fields, stays   │ └─otherwise: errors, stays
 *   ▲──────────────────── BACK ───────────────────────────────┘      (review ─BACK─▶ documents)
 * saving ─ok─▶ done
 *        ─VF on an address field─▶ form ; ─VF on a document field─▶ documents (the platform's words on the field)
 *        ─refused / other VF / no answer─▶ failed ─RETRY─▶ saving ; ─BACK─▶ review (the failure forgotten)
 * CANCEL from form, documents, review, failed ─▶ canceled
 * ```
 *
 * A new address needs its main document (a real bank does not take a new address unproven); a
 * replaced one may keep its proof. No CANCEL while saving: the answer (bounded by the request
 * time-out) says whether the platform holds the address. Pure: `saveAddress` is provided by the
 * app; expected failures are `{ ok: false, code }`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ValidationError } from '../../api/envelope.ts';
import {
  fieldErrorsOf,
  isDocumentField,
  validateAddress,
  validateDocuments,
  type AddressDocuments,
  type AddressFieldErrors,
  type AddressFormField,
  type AddressValues,
} from './address-edit.rules.ts';

export interface AddressEditInput {
  /** the address replaced, or null for a new one */
  addressId: number | null;
  /** the form's first values (the replaced address's, or empty) */
  values: AddressValues;
  /** yyyy-mm-dd: document dates are checked against it */
  today: string;
}

export interface SaveAddressRequest {
  addressId: number | null;
  values: AddressValues;
  documents: AddressDocuments;
}

/** errors: the platform's VF list, which the view words by code (detail is its English) */
export type SaveFailure = { code: 'network' } | { code: 'refused'; detail: string | null; errors?: readonly ValidationError[] };
export type SaveAddressResult = { ok: true } | { ok: false; code: 'fields'; errors: ValidationError[] } | ({ ok: false } & SaveFailure);

export type AddressEditEvent =
  | { type: 'FORM.SUBMIT'; values: AddressValues }
  | { type: 'DOCUMENTS.SUBMIT'; documents: AddressDocuments }
  | { type: 'SAVE' }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CANCEL' };

export interface AddressEditContext extends AddressEditInput {
  documents: AddressDocuments;
  fieldErrors: AddressFieldErrors;
  /** why saving failed (failed), or platform errors of no field (shown with the form) */
  saveError: SaveFailure | null;
}

const joined = (errors: readonly ValidationError[]) => errors.map((e) => `${e.param}: ${e.description}`).join('\n');
const vfOf = (r: SaveAddressResult) => fieldErrorsOf(!r.ok && r.code === 'fields' ? r.errors : []);
const fieldsOf = (errors: AddressFieldErrors) => Object.keys(errors) as AddressFormField[];

export const addressEditMachine = setup({
  types: {
    context: {} as AddressEditContext,
    events: {} as AddressEditEvent,
    input: {} as AddressEditInput,
  },
  actors: {
    saveAddress: fromPromise<SaveAddressResult, SaveAddressRequest>(async () => {
      throw new Error('saveAddress is provided by the app');
    }),
  },
  guards: {
    isAddressValid: (_, values: AddressValues) => Object.keys(validateAddress(values)).length === 0,
    areDocumentsValid: ({ context }, documents: AddressDocuments) => Object.keys(validateDocuments(documents, context.addressId === null, context.today)).length === 0,
    isSaved: (_, r: SaveAddressResult) => r.ok,
    isRefusedOnAddress: (_, r: SaveAddressResult) => fieldsOf(vfOf(r).fieldErrors).some((f) => !isDocumentField(f)),
    isRefusedOnDocument: (_, r: SaveAddressResult) => fieldsOf(vfOf(r).fieldErrors).some((f) => isDocumentField(f)),
  },
  actions: {
    storeValues: assign(({ context }, values: AddressValues) => {
      const kept = Object.fromEntries(Object.entries(context.fieldErrors).filter(([f]) => isDocumentField(f as AddressFormField))) as AddressFieldErrors;
      return { values, fieldErrors: { ...kept, ...validateAddress(values) } };
    }),
    storeDocuments: assign(({ context }, documents: AddressDocuments) => {
      const kept = Object.fromEntries(Object.entries(context.fieldErrors).filter(([f]) => !isDocumentField(f as AddressFormField))) as AddressFieldErrors;
      return { documents, fieldErrors: { ...kept, ...validateDocuments(documents, context.addressId === null, context.today) } };
    }),
    startSaving: assign({ saveError: null }),
    /** going back from a failure: the customer corrects something, the old failure no longer applies */
    clearSaveError: assign({ saveError: null }),
    storeFieldErrors: assign(({ context }, r: SaveAddressResult) => {
      const { fieldErrors, other } = vfOf(r);
      return {
        fieldErrors: { ...context.fieldErrors, ...fieldErrors },
        saveError: other.length > 0 ? ({ code: 'refused', detail: joined(other), errors: other } as SaveFailure) : null,
      };
    }),
    storeFailure: assign((_, r: SaveAddressResult) => {
      if (r.ok) return {};
      if (r.code === 'fields') return { saveError: { code: 'refused', detail: joined(r.errors), errors: r.errors } as SaveFailure };
      return { saveError: r.code === 'network' ? ({ code: 'network' } as SaveFailure) : ({ code: 'refused', detail: r.detail } as SaveFailure) };
    }),
    storeNetworkFailure: assign({ saveError: { code: 'network' } as SaveFailure }),
  },
}).createMachine({
  id: 'addressEdit',
  context: ({ input }) => ({ ...input, documents: {}, fieldErrors: {}, saveError: null }),
  initial: 'editing',
  states: {
    editing: {
      initial: 'form',
      on: { CANCEL: 'canceled' },
      states: {
        form: {
          on: {
            'FORM.SUBMIT': [
              { guard: { type: 'isAddressValid', params: ({ event }) => event.values }, target: 'documents', actions: { type: 'storeValues', params: ({ event }) => event.values } },
              { actions: { type: 'storeValues', params: ({ event }) => event.values } },
            ],
          },
        },
        documents: {
          on: {
            'DOCUMENTS.SUBMIT': [
              {
                guard: { type: 'areDocumentsValid', params: ({ event }) => event.documents },
                target: 'review',
                actions: { type: 'storeDocuments', params: ({ event }) => event.documents },
              },
              { actions: { type: 'storeDocuments', params: ({ event }) => event.documents } },
            ],
            BACK: 'form',
          },
        },
        review: {
          on: { SAVE: '#addressEdit.saving', BACK: 'documents' },
        },
      },
    },
    saving: {
      tags: ['busy'],
      entry: 'startSaving',
      invoke: {
        id: 'saveAddress',
        src: 'saveAddress',
        input: ({ context }) => ({ addressId: context.addressId, values: context.values, documents: context.documents }),
        onDone: [
          { guard: { type: 'isSaved', params: ({ event }) => event.output }, target: 'done' },
          // VF: back to the first step with a refused field, the platform's words on that field.
          { guard: { type: 'isRefusedOnAddress', params: ({ event }) => event.output }, target: 'editing.form', actions: { type: 'storeFieldErrors', params: ({ event }) => event.output } },
          { guard: { type: 'isRefusedOnDocument', params: ({ event }) => event.output }, target: 'editing.documents', actions: { type: 'storeFieldErrors', params: ({ event }) => event.output } },
          { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: 'storeNetworkFailure' },
      },
    },
    failed: {
      on: { RETRY: 'saving', BACK: { target: 'editing.review', actions: 'clearSaveError' }, CANCEL: 'canceled' },
    },
    done: { type: 'final' },
    canceled: { type: 'final' },
  },
});

export type AddressEditMachine = typeof addressEditMachine;
