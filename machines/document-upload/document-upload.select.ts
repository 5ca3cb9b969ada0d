/** Snapshot -> view facts for the document upload form. */
import type { SnapshotFrom } from 'xstate';
import type { DocumentUploadMachine } from './document-upload.machine.ts';

export type DocumentUploadSnapshot = SnapshotFrom<DocumentUploadMachine>;
export type DocumentUploadStep = 'choosingType' | 'front' | 'secondPage' | 'details' | 'review' | 'uploading' | 'failed' | 'done' | 'canceled';

export function selectDocumentUploadStep(s: DocumentUploadSnapshot): DocumentUploadStep {
  if (s.matches({ editing: 'choosingType' })) return 'choosingType';
  if (s.matches({ editing: 'front' })) return 'front';
  if (s.matches({ editing: 'secondPage' })) return 'secondPage';
  if (s.matches({ editing: 'details' })) return 'details';
  if (s.matches({ editing: 'review' })) return 'review';
  if (s.matches('uploading')) return 'uploading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('done')) return 'done';
  return 'canceled';
}

export function selectDocumentUploadView(s: DocumentUploadSnapshot) {
  const c = s.context;
  return {
    step: selectDocumentUploadStep(s),
    busy: s.hasTag('busy'),
    types: c.types,
    type: c.type,
    secondPage: c.type?.secondPage ?? null,
    expiryRequired: c.expiryRequired,
    front: c.front,
    second: c.second,
    numberRequired: c.numberRequired,
    details: c.details,
    fieldErrors: c.fieldErrors,
    uploadError: c.uploadError,
    canBack: s.can({ type: 'BACK' }),
    /** a file picked before can be kept */
    canKeepFile: s.can({ type: 'NEXT' }),
    canCancel: s.can({ type: 'CANCEL' }),
  };
}
