/**
 * Creating or replacing an address with the documents that prove it (document 1 §3 Address, §7
 * "customer address create or replace (payload plus addressStatus)"; issue 5: documents as
 * mainDocument, additionalDocument and relationshipDocument).
 *
 * ```
 * form ─FORM.SUBMIT [valid]─▶ documents ─DOCUMENTS.SUBMIT [valid]─▶ review ─SAVE─▶ saving
 *   │  └─FORM.SUBMIT otherwise: errors on the fields, stays   │ └─otherwise: errors, stays
 *   ▲──────────────────── BACK ───────────────────────────────┘      (review ─BACK─▶ documents)
 * review ─SAVE [a replaced address]─▶ checkingCards ─none affected─▶ saving
 *                                      ─cards affected─▶ cardWarning ─CONFIRM─▶ saving ; ─BACK─▶ review
 *                                      ─refused / no answer─▶ failed
 * saving ─ok─▶ done
 *        ─VF on an address field─▶ form ; ─VF on a document field─▶ documents (the platform's words on the field)
 *        ─refused / other VF / no answer─▶ failed ─RETRY─▶ saving ; ─BACK─▶ review (the failure forgotten)
 * CANCEL from form, documents, review, failed ─▶ canceled
 * ```
 *
 * A new address needs its main document (a real bank does not take a new address unproven); a
 * replaced one may keep its proof. Before a replaced address is sent, the platform says which cards
 * the change affects (document 2 §7 address replacement compatibility: cards its programme no
 * longer covers are canceled, cards already in production go to the old address) and the customer
 * confirms knowingly; a new address affects no card. No CANCEL while saving: the answer (bounded by the request
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

/** document 2 §7 addressReplacementCompatibility's answer: the card accounts a replacement affects */
export interface CardImpact {
  toBeCanceled: number[];
  shippedToOldAddress: number[];
}
export interface CardCheckRequest {
  countryCode: string;
  oldAddressId: number;
}
export type CardCheckResult = ({ ok: true } & CardImpact) | ({ ok: false } & SaveFailure);

export type AddressEditEvent =
  | { type: 'FORM.SUBMIT'; values: AddressValues }
  | { type: 'DOCUMENTS.SUBMIT'; documents: AddressDocuments }
  | { type: 'SAVE' }
  | { type: 'CONFIRM' }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CANCEL' };

export interface AddressEditContext extends AddressEditInput {
  documents: AddressDocuments;
  fieldErrors: AddressFieldErrors;
  /** why saving failed (failed), or platform errors of no field (shown with the form) */
  saveError: SaveFailure | null;
  /** what replacing the address does to the customer's cards, once asked (null: not asked since the last change) */
  cardImpact: CardImpact | null;
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
    checkCards: fromPromise<CardCheckResult, CardCheckRequest>(async () => {
      throw new Error('checkCards is provided by the app');
    }),
  },
  guards: {
    isAddressValid: (_, values: AddressValues) => Object.keys(validateAddress(values)).length === 0,
    areDocumentsValid: ({ context }, documents: AddressDocuments) => Object.keys(validateDocuments(documents, context.addressId === null, context.today)).length === 0,
    isSaved: (_, r: SaveAddressResult) => r.ok,
    isReplacement: ({ context }) => context.addressId !== null,
    /** a replacement whose card check has no answer yet (it failed): retrying asks again */
    needsCardCheck: ({ context }) => context.addressId !== null && context.cardImpact === null,
    isCheckFailed: (_, r: CardCheckResult) => !r.ok,
    affectsCards: (_, r: CardCheckResult) => r.ok && r.toBeCanceled.length + r.shippedToOldAddress.length > 0,
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
    startCheckingCards: assign({ saveError: null, cardImpact: null }),
    storeCardImpact: assign((_, r: CardCheckResult) => (r.ok ? { cardImpact: { toBeCanceled: r.toBeCanceled, shippedToOldAddress: r.shippedToOldAddress } } : {})),
    /** going back from a failure: the customer corrects something, the old failure no longer applies */
    clearSaveError: assign({ saveError: null }),
    storeFieldErrors: assign(({ context }, r: SaveAddressResult) => {
      const { fieldErrors, other } = vfOf(r);
      return {
        fieldErrors: { ...context.fieldErrors, ...fieldErrors },
        saveError: other.length > 0 ? ({ code: 'refused', detail: joined(other), errors: other } as SaveFailure) : null,
      };
    }),
    storeFailure: assign((_, r: SaveAddressResult | CardCheckResult) => {
      if (r.ok) return {};
      if (r.code === 'fields') return { saveError: { code: 'refused', detail: joined(r.errors), errors: r.errors } as SaveFailure };
      return { saveError: r.code === 'network' ? ({ code: 'network' } as SaveFailure) : ({ code: 'refused', detail: r.detail } as SaveFailure) };
    }),
    storeNetworkFailure: assign({ saveError: { code: 'network' } as SaveFailure }),
  },
}).createMachine({
  id: 'addressEdit',
  description: 'The customer creates a new address, or replaces one, together with the documents that prove it, and sends both to the platform.',
  meta: { spec: ['document 1 §3', 'document 1 §5', 'document 1 §7', 'document 3 §5'] },
  context: ({ input }) => ({ ...input, documents: {}, fieldErrors: {}, saveError: null, cardImpact: null }),
  initial: 'editing',
  states: {
    editing: {
      description: 'The customer is filling in the address, its documents or reviewing them; nothing has been sent yet.',
      initial: 'form',
      on: { CANCEL: { target: 'canceled', description: 'The customer gives up; nothing is sent and the address stays as it was.' } },
      states: {
        form: {
          description: 'The customer enters the address fields (a replaced address starts with its current values).',
          meta: { spec: ['document 1 §3'] },
          on: {
            'FORM.SUBMIT': [
              {
                guard: { type: 'isAddressValid', params: ({ event }) => event.values },
                target: 'documents',
                actions: { type: 'storeValues', params: ({ event }) => event.values },
                description: 'The address fields are complete and valid; the customer goes on to the documents.',
              },
              {
                actions: { type: 'storeValues', params: ({ event }) => event.values },
                description: 'Some address fields are missing or invalid; the errors are shown on them and the form stays.',
              },
            ],
          },
        },
        documents: {
          description: 'The customer attaches the documents that prove the address (main, additional, relationship); a new address needs its main document.',
          meta: { spec: ['document 3 §5'] },
          on: {
            'DOCUMENTS.SUBMIT': [
              {
                guard: { type: 'areDocumentsValid', params: ({ event }) => event.documents },
                target: 'review',
                actions: { type: 'storeDocuments', params: ({ event }) => event.documents },
                description: 'The documents are complete and valid; the customer goes on to review everything.',
              },
              {
                actions: { type: 'storeDocuments', params: ({ event }) => event.documents },
                description: 'A document is missing or invalid (type, file or dates); the errors are shown and the step stays.',
              },
            ],
            BACK: { target: 'form', description: 'The customer goes back to correct the address fields.' },
          },
        },
        review: {
          description: 'The customer reviews the address and its documents before sending them.',
          on: {
            SAVE: [
              {
                guard: 'isReplacement',
                target: '#addressEdit.checkingCards',
                description: 'The customer saves a replaced address; first the platform says which of their cards the change affects.',
              },
              { target: '#addressEdit.saving', description: 'The customer sends the new address and its documents to the platform (a new address affects no card).' },
            ],
            BACK: { target: 'documents', description: 'The customer goes back to change the documents.' },
          },
        },
      },
    },
    checkingCards: {
      description: 'The platform says which cards replacing the address would cancel or send to the old address; the customer waits.',
      meta: { spec: ['document 2 §7'] },
      tags: ['busy'],
      entry: 'startCheckingCards',
      invoke: {
        id: 'checkCards',
        src: 'checkCards',
        input: ({ context }) => ({ countryCode: context.values.countryCode.trim().toUpperCase(), oldAddressId: context.addressId! }),
        onDone: [
          {
            guard: { type: 'isCheckFailed', params: ({ event }) => event.output },
            target: 'failed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused to say (the address is not the customer’s); the reason is kept to show.',
          },
          {
            guard: { type: 'affectsCards', params: ({ event }) => event.output },
            target: 'cardWarning',
            actions: { type: 'storeCardImpact', params: ({ event }) => event.output },
            description: 'Some cards would be canceled or sent to the old address; the customer is told before anything changes.',
          },
          {
            target: 'saving',
            actions: { type: 'storeCardImpact', params: ({ event }) => event.output },
            description: 'No card is affected; the address is sent at once.',
          },
        ],
        onError: { target: 'failed', actions: 'storeNetworkFailure', description: 'No answer came; it reads as a network failure and nothing is sent.' },
      },
    },
    cardWarning: {
      description: 'The customer reads which cards the change cancels (their balance returned) and which go to the old address, and confirms or goes back.',
      meta: { spec: ['document 2 §7'] },
      on: {
        CONFIRM: { target: 'saving', description: 'The customer accepts what happens to the cards and sends the address.' },
        BACK: { target: 'editing.review', description: 'The customer goes back to the review (to change the address, or to keep it).' },
        CANCEL: { target: 'canceled', description: 'The customer keeps the old address; no card changes.' },
      },
    },
    saving: {
      description: 'The platform is saving the address and its documents; the customer waits and cannot cancel.',
      tags: ['busy'],
      entry: 'startSaving',
      invoke: {
        id: 'saveAddress',
        src: 'saveAddress',
        input: ({ context }) => ({ addressId: context.addressId, values: context.values, documents: context.documents }),
        onDone: [
          { guard: { type: 'isSaved', params: ({ event }) => event.output }, target: 'done', description: 'The platform holds the address and its documents.' },
          // VF: back to the first step with a refused field, the platform's words on that field.
          {
            guard: { type: 'isRefusedOnAddress', params: ({ event }) => event.output },
            target: 'editing.form',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: 'The platform refused an address field; the customer is taken back to the form with its words on that field.',
          },
          {
            guard: { type: 'isRefusedOnDocument', params: ({ event }) => event.output },
            target: 'editing.documents',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: 'The platform refused a document; the customer is taken back to the documents with its words on that field.',
          },
          {
            target: 'failed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused the address for a reason tied to no field, or was not reached; the reason is kept to show.',
          },
        ],
        onError: { target: 'failed', actions: 'storeNetworkFailure', description: 'No answer came (network failure or time-out); it reads as a network failure.' },
      },
    },
    failed: {
      description: 'The address was not saved (refused or no answer); the customer can try again, go back to the review, or cancel.',
      on: {
        RETRY: [
          { guard: 'needsCardCheck', target: 'checkingCards', description: 'The card check had no answer: the customer asks it again before anything is sent.' },
          { target: 'saving', description: 'The customer sends the same address and documents again.' },
        ],
        BACK: { target: 'editing.review', actions: 'clearSaveError', description: 'The customer goes back to the review to change something; the failure is forgotten.' },
        CANCEL: { target: 'canceled', description: 'The customer gives up after the failure; the address stays as it was.' },
      },
    },
    done: { type: 'final', description: 'The address and its documents are saved; the flow ends.' },
    canceled: { type: 'final', description: 'The customer left without saving; the address is unchanged.' },
  },
});

export type AddressEditMachine = typeof addressEditMachine;
