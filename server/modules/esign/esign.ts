/**
 * The e-signature port (the contract between the modules that ask for signatures and the adapter
 * that collects them). The built-in adapter (builtin.ts) is the default: it keeps the envelope in
 * esign_envelopes / esign_documents and serves its own signing page (/e-sign/<token> in the web
 * app, REST under /e-signature/<token>). Another provider's adapter would implement the same
 * `start` and call `completeDocument` from its webhook.
 *
 * A purpose (the tax forms, later contracts) registers a handler that files each signed document
 * in the same transaction as the signature is recorded (e.g. as a customer document for review).
 */
import type { Tx } from '../../db/types.ts';

export interface SignatureDocumentInput {
  /** e.g. 'w8Ben', 'taxResidencySelfCertification' */
  kind: string;
  /** shown on the signing page (already in the signer's language) */
  title: string;
  fileName: string;
  /** the filled, unsigned PDF */
  pdf: Uint8Array;
  /**
   * Where the signature goes, in PDF points from the page's bottom-left (0-based page index); the
   * adapter draws the signature, the typed name and the date there. Absent: on the last page's foot.
   */
  signatureBox?: { page: number; x: number; y: number; width: number; height: number };
}

export interface SignatureRequest {
  purpose: string;
  customerId: number;
  representativeId?: number | null;
  createdByUserId: number | null;
  signer: { name: string; email: string | null };
  documents: readonly SignatureDocumentInput[];
  /** handed back to the purpose's handler */
  context: Record<string, unknown>;
  /**
   * Which open envelopes of the same purpose and signer this one replaces: those whose context
   * holds these values (a contract's: its contractId, so a signer of two contracts keeps both
   * links). Absent: every open one of the purpose (the tax forms: one certification at a time).
   */
  supersedes?: Record<string, string | number>;
  /** the app path the signing page returns to when every document is signed */
  returnPath: string;
  nowMs: number;
}

/** signData of document 3 §3: the envelope's client id and one sign URL per document, in order. */
export interface SignatureStart {
  clientId: string;
  signUrls: string[];
}

export interface SignatureAdapter {
  readonly name: string;
  /** Creates the envelope in the caller's transaction; earlier open envelopes of the same purpose and signer are voided. */
  start(tx: Tx, request: SignatureRequest): Promise<SignatureStart>;
}

/** What a purpose's handler receives for each signed document (in the signing transaction). */
export interface SignedDocument {
  envelopeId: number;
  purpose: string;
  customerId: number;
  representativeId: number | null;
  createdByUserId: number | null;
  context: Record<string, unknown>;
  kind: string;
  fileName: string;
  signedPdf: Uint8Array;
  signedSha256: string;
  signedAt: Date;
  signerTypedName: string;
  signerIp: string;
}

/** Files the signed document; answers the customer document id it was filed as (or null). */
export type SignedDocumentHandler = (tx: Tx, signed: SignedDocument) => Promise<number | null>;

const handlers = new Map<string, SignedDocumentHandler>();

/** A purpose registers its handler once, at module load. */
export function onDocumentSigned(purpose: string, handler: SignedDocumentHandler): void {
  handlers.set(purpose, handler);
}

export function signedDocumentHandler(purpose: string): SignedDocumentHandler | undefined {
  return handlers.get(purpose);
}

/**
 * The PDF a document of the purpose is to be stamped on, read when it is signed (in the signing
 * transaction, before the stamp; the purpose takes its own lock there): null keeps the PDF the
 * envelope was started with. A contract's second signer stamps the first signer's signed PDF,
 * even when both signing pages were opened before either signed.
 */
export type SigningBaseReader = (tx: Tx, document: { context: Record<string, unknown>; kind: string }) => Promise<Uint8Array | null>;

const baseReaders = new Map<string, SigningBaseReader>();

/** A purpose whose signed PDF may change between the envelope's start and its signing registers its reader once, at module load. */
export function onDocumentSigning(purpose: string, reader: SigningBaseReader): void {
  baseReaders.set(purpose, reader);
}

export function signingBaseReader(purpose: string): SigningBaseReader | undefined {
  return baseReaders.get(purpose);
}
