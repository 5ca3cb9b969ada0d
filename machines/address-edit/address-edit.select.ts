/** Snapshot -> view facts for the address change. */
import type { SnapshotFrom } from 'xstate';
import type { AddressEditMachine } from './address-edit.machine.ts';

export type AddressEditSnapshot = SnapshotFrom<AddressEditMachine>;
export type AddressEditStep = 'form' | 'documents' | 'review' | 'checkingCards' | 'cardWarning' | 'saving' | 'failed' | 'done' | 'canceled';

export function selectAddressEditStep(s: AddressEditSnapshot): AddressEditStep {
  if (s.matches({ editing: 'form' })) return 'form';
  if (s.matches({ editing: 'documents' })) return 'documents';
  if (s.matches({ editing: 'review' })) return 'review';
  if (s.matches('checkingCards')) return 'checkingCards';
  if (s.matches('cardWarning')) return 'cardWarning';
  if (s.matches('saving')) return 'saving';
  if (s.matches('failed')) return 'failed';
  if (s.matches('done')) return 'done';
  return 'canceled';
}

export function selectAddressEditView(s: AddressEditSnapshot) {
  const c = s.context;
  return {
    step: selectAddressEditStep(s),
    busy: s.hasTag('busy'),
    isNew: c.addressId === null,
    values: c.values,
    documents: c.documents,
    fieldErrors: c.fieldErrors,
    saveError: c.saveError,
    cardImpact: c.cardImpact,
    canBack: s.can({ type: 'BACK' }),
    canCancel: s.can({ type: 'CANCEL' }),
  };
}
