/** The document type dictionary (dictionaryDocumentTypes) as the verification pages read it. */
import { DocumentCategory } from '../../../api/verification.ts';
import type { UploadDocumentType } from '../../../machines/document-upload/document-upload.rules.ts';

interface DictionaryType {
  id: number;
  name: string;
  needsBack: boolean;
  secondPage?: 'back' | 'registrationStamp';
}
interface DictionaryCategory {
  id: number;
  name: string;
  customerDocumentTypes: DictionaryType[];
}

export interface DocumentTypeFacts {
  name: string;
  categoryId: number;
  upload: UploadDocumentType;
}

/** Every type by id, with its category and the second file it needs. */
export function documentTypeIndex(categories: readonly DictionaryCategory[]): ReadonlyMap<number, DocumentTypeFacts> {
  const index = new Map<number, DocumentTypeFacts>();
  for (const category of categories) {
    for (const type of category.customerDocumentTypes) {
      if (index.has(type.id)) continue;
      index.set(type.id, {
        name: type.name,
        categoryId: category.id,
        upload: { id: type.id, secondPage: type.secondPage ?? (type.needsBack ? 'back' : null) },
      });
    }
  }
  return index;
}

/**
 * What the upload form needs for one required type; a type the dictionary does not list is sent as
 * a one-file document of category "other" (the platform checks it again).
 */
export function uploadInputFor(index: ReadonlyMap<number, DocumentTypeFacts>, documentTypeId: number, today: string) {
  const facts = index.get(documentTypeId);
  const categoryId = facts?.categoryId ?? DocumentCategory.other;
  return {
    categoryId,
    types: [facts?.upload ?? { id: documentTypeId, secondPage: null }],
    // Identity documents carry an expiry date (machines/document-upload expiryRequired).
    expiryRequired: categoryId === DocumentCategory.identity,
    today,
  };
}

/** Today in UTC (yyyy-mm-dd), as the platform's date rules read it. */
export const todayIso = (): string => new Date().toISOString().slice(0, 10);
