/**
 * Document rules (document 1 §3; issue 5 §2): the file checks (type read from the content, size),
 * the dictionary's document types (which need a back or a registration-stamp page, which are
 * offered only to some countries), the date rules, storing a document with its sub-documents,
 * and the wire shape of an uploaded document.
 */
import { TAX_DOCUMENT_TYPES } from '../../../api/tax-certification.ts';
import { createHash } from 'node:crypto';
import { and, asc, count, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import { DOCUMENT_MAX_BYTES, DOCUMENT_QUOTA_BYTES, DOCUMENT_QUOTA_FILES, DocumentFileField, type UploadedDocument } from '../../../api/documents.ts';
import { addDays, DocumentCategory } from '../../../api/verification.ts';
import type { Db, Tx } from '../../db/types.ts';
import { DictionaryKey } from '../dictionaries/data/types.ts';
import { dictionaryItems, type UiLanguage } from '../dictionaries/dictionaries.tables.ts';
import { MethodFailure, type UploadedFile } from '../method-types.ts';
import { customerDocuments } from './profile.tables.ts';
import { customers } from '../customers/customers.tables.ts';
import { contentProblem } from './document-content.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';

/** Every column but the file content: lists never load files. */
const { content: _content, ...documentColumns } = getTableColumns(customerDocuments);
export { documentColumns };
export type DocumentRow = Omit<typeof customerDocuments.$inferSelect, 'content'>;
export type DetectedMime = 'application/pdf' | 'image/jpeg' | 'image/png';

/**
 * An address document must be recent when uploaded (not shown in the spec: 180 days, what banks
 * commonly accept for a utility bill or statement); after ADDRESS_DOCUMENT_OUT_OF_DATE_DAYS a
 * confirmed one is out of date (isDocumentOutOfDate) and the customer is asked for a newer one.
 */
export const ADDRESS_DOCUMENT_MAX_AGE_DAYS = 180;
export const ADDRESS_DOCUMENT_OUT_OF_DATE_DAYS = 365;
export const FILE_NAME_MAX = 200;

/** Categories proving an address (their documents carry an issue date). */
export const ADDRESS_CATEGORIES: ReadonlySet<number> = new Set([DocumentCategory.address, DocumentCategory.businessAddress, DocumentCategory.registrationAddress]);

/** The file's type from its first bytes (magic numbers), or null when it is none of PDF, JPEG, PNG. */
export function detectMime(content: Buffer): DetectedMime | null {
  if (content.length >= 5 && content.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (content.length >= 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (content.length >= 8 && png.every((b, i) => content[i] === b)) return 'image/png';
  return null;
}

export const FileMessages = {
  missing: (param: string) => vf(param, VfCode.required),
  empty: (param: string) => vf(param, VfCode.fileEmpty),
  tooLarge: (param: string) => vf(param, VfCode.fileTooLarge, { maxMb: DOCUMENT_MAX_BYTES / 1_000_000 }),
  wrongType: (param: string) => vf(param, VfCode.fileWrongType),
  unexpected: (param: string) => vf(param, VfCode.fileUnexpected),
  duplicate: (param: string) => vf(param, VfCode.fileDuplicate),
  activePdf: (param: string) => vf(param, VfCode.fileActivePdf),
  polyglot: (param: string) => vf(param, VfCode.filePolyglot),
  quota: (param: string) => vf(param, VfCode.documentQuota, { files: DOCUMENT_QUOTA_FILES, maxMb: DOCUMENT_QUOTA_BYTES / 1_000_000 }),
} as const;

export interface CheckedFile {
  fileName: string;
  mimeType: DetectedMime;
  content: Buffer;
  sha256: string;
}

/** Checks one file; the errors name its multipart field. */
export function checkFile(file: UploadedFile | undefined, param: string, errors: CodedValidationError[]): CheckedFile | null {
  if (!file) {
    errors.push(FileMessages.missing(param));
    return null;
  }
  if (file.content.length === 0) {
    errors.push(FileMessages.empty(param));
    return null;
  }
  if (file.content.length > DOCUMENT_MAX_BYTES) {
    errors.push(FileMessages.tooLarge(param));
    return null;
  }
  const mimeType = detectMime(file.content);
  if (!mimeType) {
    errors.push(FileMessages.wrongType(param));
    return null;
  }
  const problem = contentProblem(file.content, mimeType);
  if (problem) {
    errors.push(FileMessages[problem](param));
    return null;
  }
  // The name is display metadata only (the download is named by downloadFileName): keep it plain.
  const fileName = (file.fileName || 'document').replace(/[^\p{L}\p{N} ._()-]/gu, '_').slice(0, FILE_NAME_MAX) || 'document';
  return { fileName, mimeType, content: file.content, sha256: createHash('sha256').update(file.content).digest('hex') };
}

export interface DocumentTypeInfo {
  categoryId: number;
  typeId: number;
  names: Record<UiLanguage, string>;
  secondPage: 'back' | 'registrationStamp' | null;
  countryCodes: string[] | null;
}

/** A document type of a category from the dictionary (null when the category has no such type). */
export async function documentTypeOf(db: Db | Tx, categoryId: number, typeId: number): Promise<DocumentTypeInfo | null> {
  const [row] = await db
    .select()
    .from(dictionaryItems)
    .where(and(eq(dictionaryItems.dictionary, DictionaryKey.documentTypes), eq(dictionaryItems.itemKey, `${categoryId}-${typeId}`)));
  if (!row) return null;
  const data = row.data as { secondPage?: 'back' | 'registrationStamp' | null; countryCodes?: string[] | null };
  return { categoryId, typeId, names: row.names, secondPage: data.secondPage ?? null, countryCodes: data.countryCodes ?? null };
}

/** Names of the document types of some documents, in a language, keyed `<category>-<type>`. */
export async function typeNames(db: Db | Tx, rows: readonly Pick<DocumentRow, 'categoryId' | 'documentTypeId'>[], lang: UiLanguage): Promise<Map<string, string>> {
  const keys = [...new Set(rows.map((r) => `${r.categoryId}-${r.documentTypeId}`))];
  if (keys.length === 0) return new Map();
  const found = await db
    .select({ key: dictionaryItems.itemKey, names: dictionaryItems.names })
    .from(dictionaryItems)
    .where(and(eq(dictionaryItems.dictionary, DictionaryKey.documentTypes), inArray(dictionaryItems.itemKey, keys)));
  return new Map(found.map((f) => [f.key, f.names[lang] ?? f.names.en]));
}

export function toWire(row: DocumentRow, names: Map<string, string>): UploadedDocument {
  return {
    id: row.id,
    statusId: row.statusId,
    uploaded: row.uploaded.toISOString(),
    categoryId: row.categoryId,
    documentTypeId: row.documentTypeId,
    documentType: names.get(`${row.categoryId}-${row.documentTypeId}`) ?? String(row.documentTypeId),
    isSubDocument: row.parentId !== null,
    side: row.side,
    parentId: row.parentId,
    addressId: row.addressId,
    number: row.number,
    issuedDate: row.issuedDate,
    expiresDate: row.expiresDate,
    createdUsername: row.createdUsername,
    rejectReason: row.rejectReason,
    fileName: row.fileName,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
  };
}

/** Every row of some documents as the wire shows them, in a language. */
export async function documentsToWire(db: Db | Tx, rows: readonly DocumentRow[], lang: UiLanguage): Promise<UploadedDocument[]> {
  const names = await typeNames(db, rows, lang);
  return rows.map((r) => toWire(r, names));
}

/** The metadata of one document to store (validated by the api/ schema already). */
export interface DocumentMeta {
  categoryId: number;
  documentTypeId: number;
  number?: string | undefined;
  issuedDate?: string | undefined;
  expiresDate?: string | undefined;
}

export interface NewDocument {
  customerId: number;
  residenceCountryCode: string | null;
  meta: DocumentMeta;
  addressId: number | null;
  createdUsername: string;
  createdByUserId: number;
  /** the multipart field of the front page; its second page is `<prefix>back` etc. */
  frontField: string;
  secondFieldPrefix: string;
  /** the VF param prefix of the metadata fields ('' or 'mainDocument.') */
  paramPrefix: string;
}

/**
 * The tax forms signed online (api/tax-certification.ts): they reach the review queue only from the
 * signing page, with the signature's evidence, never as an upload (a W-8BEN sent by hand would count
 * as signed once confirmed). The certificate of loss of nationality is uploaded as any document.
 */
const SIGNED_ONLY_TYPE_IDS: ReadonlySet<number> = new Set([TAX_DOCUMENT_TYPES.w9, TAX_DOCUMENT_TYPES.w8Ben, TAX_DOCUMENT_TYPES.w8BenE, TAX_DOCUMENT_TYPES.taxResidencySelfCertification]);

/**
 * Validates one document (type, country, dates, number, files) and collects every problem in
 * `errors`; returns what to store, or null when anything is wrong. Nothing is written here.
 */
export async function prepareDocument(db: Db | Tx, doc: NewDocument, files: readonly UploadedFile[], today: string, errors: CodedValidationError[]) {
  const p = doc.paramPrefix;
  const { meta } = doc;
  const before = errors.length;
  const type = await documentTypeOf(db, meta.categoryId, meta.documentTypeId);
  if (!type || SIGNED_ONLY_TYPE_IDS.has(meta.documentTypeId)) errors.push(vf(`${p}documentTypeId`, VfCode.notDocumentType));
  else if (type.countryCodes && !(doc.residenceCountryCode && type.countryCodes.includes(doc.residenceCountryCode))) {
    errors.push(vf(`${p}documentTypeId`, VfCode.residentsOnly, { countries: type.countryCodes.join(', ') }));
  }
  if (meta.issuedDate && meta.issuedDate > today) errors.push(vf(`${p}issuedDate`, VfCode.notInFuture));
  if (meta.expiresDate) {
    if (meta.issuedDate && meta.expiresDate <= meta.issuedDate) errors.push(vf(`${p}expiresDate`, VfCode.afterIssueDate));
    else if (meta.expiresDate < today) errors.push(vf(`${p}expiresDate`, VfCode.notInPast));
  }
  if (meta.categoryId === DocumentCategory.identity) {
    // The number finds the same identity document on two customers (duplicate documents, §4 rule 3).
    if (!meta.number) errors.push(vf(`${p}number`, VfCode.required));
    if (!meta.expiresDate) errors.push(vf(`${p}expiresDate`, VfCode.required));
  }
  if (ADDRESS_CATEGORIES.has(meta.categoryId)) {
    if (!meta.issuedDate) errors.push(vf(`${p}issuedDate`, VfCode.required));
    else if (meta.issuedDate < addDays(today, -ADDRESS_DOCUMENT_MAX_AGE_DAYS)) {
      errors.push(vf(`${p}issuedDate`, VfCode.tooOld, { days: ADDRESS_DOCUMENT_MAX_AGE_DAYS }));
    }
  }
  const fileOf = (field: string): UploadedFile | undefined => {
    const matching = files.filter((f) => f.fieldName === field);
    if (matching.length > 1) errors.push(FileMessages.duplicate(field));
    return matching[0];
  };
  const front = checkFile(fileOf(doc.frontField), doc.frontField, errors);
  const secondFields = [DocumentFileField.back, DocumentFileField.registrationStamp].map((side) => ({ side, field: `${doc.secondFieldPrefix}${side}` }));
  let second: { side: 'back' | 'registrationStamp'; file: CheckedFile } | null = null;
  for (const { side, field } of secondFields) {
    const present = files.some((f) => f.fieldName === field);
    if (type && type.secondPage === side) {
      const file = checkFile(fileOf(field), field, errors);
      if (file) second = { side, file };
    } else if (present) {
      errors.push(FileMessages.unexpected(field));
    }
  }
  if (errors.length > before || !front) return null;
  return { meta, front, second };
}

export type PreparedDocument = NonNullable<Awaited<ReturnType<typeof prepareDocument>>>;

const EXTENSIONS: Record<DetectedMime, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' };

/**
 * The name a document file downloads under: generated from the row (never the uploaded name) with
 * the extension of the type detected from its content, so a file is never served under a name
 * that makes a browser or an operating system treat it as something else.
 */
export function downloadFileName(row: Pick<DocumentRow, 'id' | 'side' | 'mimeType'>): string {
  return `document-${row.id}-${row.side}.${EXTENSIONS[row.mimeType as DetectedMime] ?? 'bin'}`;
}

/**
 * Refuses files past the customer's quota (DOCUMENT_QUOTA_FILES, DOCUMENT_QUOTA_BYTES) with VF
 * naming `param`. The customer's row is locked first, so two concurrent uploads count each other.
 */
export async function checkDocumentQuota(tx: Tx, customerId: number, files: readonly CheckedFile[], param: string): Promise<void> {
  await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('update');
  const [kept] = await tx
    .select({ files: count(), bytes: sql<string>`coalesce(sum(${customerDocuments.sizeBytes}), 0)` })
    .from(customerDocuments)
    .where(and(eq(customerDocuments.customerId, customerId), ne(customerDocuments.statusId, 5)));
  const newBytes = files.reduce((sum, f) => sum + f.content.length, 0);
  if ((kept?.files ?? 0) + files.length > DOCUMENT_QUOTA_FILES || Number(kept?.bytes ?? 0) + newBytes > DOCUMENT_QUOTA_BYTES) {
    throw new MethodFailure('VF', 'Invalid request', [FileMessages.quota(param)]);
  }
}

/** Stores a prepared document (within the customer's quota): the main row and its sub-document; returns both rows. */
export async function storeDocument(tx: Tx, doc: NewDocument, prepared: PreparedDocument, uploadedAt: Date): Promise<DocumentRow[]> {
  await checkDocumentQuota(tx, doc.customerId, prepared.second ? [prepared.front, prepared.second.file] : [prepared.front], doc.frontField);
  const common = {
    customerId: doc.customerId,
    categoryId: prepared.meta.categoryId,
    documentTypeId: prepared.meta.documentTypeId,
    statusId: 0,
    addressId: doc.addressId,
    number: prepared.meta.number ?? null,
    issuedDate: prepared.meta.issuedDate ?? null,
    expiresDate: prepared.meta.expiresDate ?? null,
    createdUsername: doc.createdUsername,
    createdByUserId: doc.createdByUserId,
    uploaded: uploadedAt,
  };
  const fileColumns = (f: CheckedFile) => ({ fileName: f.fileName, mimeType: f.mimeType, sizeBytes: f.content.length, sha256: f.sha256, content: f.content });
  const [main] = await tx
    .insert(customerDocuments)
    .values({ ...common, side: 'front', ...fileColumns(prepared.front) })
    .returning(documentColumns);
  if (!main) throw new Error('document insert returned no row');
  const rows = [main];
  if (prepared.second) {
    const [sub] = await tx
      .insert(customerDocuments)
      .values({ ...common, side: prepared.second.side, parentId: main.id, ...fileColumns(prepared.second.file) })
      .returning(documentColumns);
    rows.push(sub!);
  }
  return rows;
}

/** A customer's own document, or ENOA (another customer's id and an unknown id answer alike). */
export async function ownDocument(db: Db | Tx, customerId: number, documentId: number): Promise<DocumentRow> {
  const [row] = await db
    .select(documentColumns)
    .from(customerDocuments)
    .where(and(eq(customerDocuments.id, documentId), eq(customerDocuments.customerId, customerId)));
  if (!row || row.statusId === 5) throw new MethodFailure('ENOA', 'No such document');
  return row;
}

/** Every document of a customer (deleted ones left out), oldest first. */
export async function customerDocumentRows(db: Db | Tx, customerId: number, categoryId?: number): Promise<DocumentRow[]> {
  const rows = await db
    .select(documentColumns)
    .from(customerDocuments)
    .where(categoryId === undefined ? eq(customerDocuments.customerId, customerId) : and(eq(customerDocuments.customerId, customerId), eq(customerDocuments.categoryId, categoryId)))
    .orderBy(asc(customerDocuments.uploaded), asc(customerDocuments.id));
  return rows.filter((r) => r.statusId !== 5);
}

/** yyyy-mm-dd (UTC) of a clock reading. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
