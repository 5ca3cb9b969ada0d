/**
 * Signing a contract through the e-signature port (server/modules/esign, as the tax forms do in
 * tax/tax.signing.ts): each side signs its own envelope (purpose 'contract', context
 * { contractId, side }) holding one document, the contract's PDF with that side's signature box.
 * The side that signs second signs the first side's stamped PDF, so the last signed file carries
 * both signatures and both signature certificates: it is the signed contract (pdfUrl answers it).
 * The envelope starts on the PDF as it is then (`basedOn`); at signing, the stamp is made on the
 * other side's signed PDF read under the contract's row lock (onDocumentSigning below), so two
 * sides signing at the same moment, or with both signing pages opened before either signed, are
 * stamped one after the other and the second keeps the first's signature.
 *
 * The purpose's handler runs in the signing transaction (builtin.ts signDocument): it locks the
 * contract, applies what is due, checks that this side may still sign (contractActions: not
 * expired, cancelled or rejected meanwhile; a refusal rolls the signature back and the signing
 * page says so), records the side's signature (time, the esign document), moves the status
 * (statusAfterSignatures; the payer's identification when both have signed), audits and notifies.
 *
 * Known limits (not shown in the spec):
 * - the built-in adapter voids a customer's earlier open envelope of the same purpose: a company
 *   that opens the signing page of a second contract voids the first one's link (GET signUrl
 *   starts a fresh one; the app asks for it on each Sign press);
 * - notifications of a signature: the push outbox writes them in the signing transaction on
 *   PostgreSQL; the in-process transport (PGlite, one process) publishes them right after the
 *   handler, so a signature that then fails to commit may have pushed its toast (its notification
 *   row is rolled back with it).
 */
import { and, eq } from 'drizzle-orm';
import { contractActions, statusAfterSignatures, type ContractSide } from '../../../api/contracts.ts';
import { vf, VfCode } from '../../../api/errors.ts';
import type { Tx } from '../../db/types.ts';
import { EsignFailure } from '../esign/builtin.ts';
import { onDocumentSigned, onDocumentSigning, type SignatureAdapter, type SignatureStart } from '../esign/esign.ts';
import { esignDocuments } from '../esign/esign.tables.ts';
import { documentLanguage } from '../history/document-words.ts';
import type { PushPublisher } from '../push/publisher.ts';
import type { PublishAfterCommit } from '../notifications/notify.ts';
import { renderContractPdf, type ContractPdfData } from './contract-pdf.ts';
import { advance, auditContract, factsOf, lockContract, notifyBoth, notifyOther, partyNames, payerIdentified, type ContractRow } from './contracts.service.ts';
import { contracts } from './contracts.tables.ts';

export const CONTRACT_PURPOSE = 'contract';
export const CONTRACT_DOCUMENT_KIND = 'revenueSplitContract';

interface ContractSigningContext {
  contractId: number;
  side: ContractSide;
  /** the other side's signed esign document this PDF was made from (null: the unsigned contract) */
  basedOn: number | null;
}

/** The publisher the signing handler pushes with (set by the contracts routes when the app starts). */
let publisherRef: PushPublisher | null = null;
export function setContractPublisher(publisher: PushPublisher | null): void {
  publisherRef = publisher;
}

/** The PDF data of a stored contract, in the initiator's language. */
export async function contractPdfData(tx: Tx, row: ContractRow, providerName: string): Promise<ContractPdfData> {
  const names = await partyNames(tx, [row.senderId, row.beneficiaryId, row.initiatorId]);
  const party = (id: number, signerName: string, obligations: string[]) => ({ id, name: names.get(id)?.name ?? '', signerName, obligations });
  return {
    lang: documentLanguage(names.get(row.initiatorId)?.language ?? 'en'),
    providerName,
    contractId: row.id,
    sender: party(row.senderId, row.senderSignerName, row.senderObligations),
    beneficiary: party(row.beneficiaryId, row.beneficiarySignerName, row.beneficiaryObligations),
    percentage: row.percentageBp / 100,
    activeFrom: row.activeFrom.toISOString().slice(0, 10),
    note: row.note,
    // the contract's own date: the same contract gives the same bytes
    generatedAt: row.createdAt,
  };
}

/** The signed PDF of an esign document (null when absent). */
export async function signedPdfOf(tx: Tx, esignDocumentId: number | null): Promise<Buffer | null> {
  if (esignDocumentId === null) return null;
  const [doc] = await tx.select({ pdf: esignDocuments.signedPdf }).from(esignDocuments).where(eq(esignDocuments.id, esignDocumentId));
  return doc?.pdf ?? null;
}

export interface StartContractSigningInput {
  row: ContractRow;
  side: ContractSide;
  createdByUserId: number | null;
  signerEmail: string | null;
  providerName: string;
  nowMs: number;
  adapter: SignatureAdapter;
}

/** Starts (or restarts) the side's envelope in the caller's transaction; answers signData. */
export async function startContractSigning(tx: Tx, input: StartContractSigningInput): Promise<SignatureStart> {
  const { row, side } = input;
  const rendered = await renderContractPdf(await contractPdfData(tx, row, input.providerName));
  const otherDocumentId = side === 'sender' ? row.beneficiarySignedDocumentId : row.senderSignedDocumentId;
  const otherSigned = await signedPdfOf(tx, otherDocumentId);
  const context: ContractSigningContext = { contractId: row.id, side, basedOn: otherSigned ? otherDocumentId : null };
  return input.adapter.start(tx, {
    purpose: CONTRACT_PURPOSE,
    customerId: side === 'sender' ? row.senderId : row.beneficiaryId,
    representativeId: null,
    createdByUserId: input.createdByUserId,
    signer: { name: side === 'sender' ? row.senderSignerName : row.beneficiarySignerName, email: input.signerEmail },
    documents: [
      {
        kind: CONTRACT_DOCUMENT_KIND,
        title: rendered.title,
        fileName: rendered.fileName,
        pdf: otherSigned ?? rendered.pdf,
        signatureBox: rendered.signatureBoxes[side],
      },
    ],
    context: { ...context },
    // a signer of two contracts keeps both links: only this contract's earlier envelope is replaced
    supersedes: { contractId: row.id },
    returnPath: `/revenue-split/${row.id}`,
    nowMs: input.nowMs,
  });
}

const notSignable = (status: string) => new EsignFailure(409, 'VF', 'This contract can no longer be signed', [vf('token', VfCode.requestNotActive, { status })]);

/**
 * The PDF a side's signature is stamped on (in the signing transaction, before the stamp): the
 * other side's signed PDF once it has signed, read under the contract's row lock, which the
 * signature then holds to its commit (a signature of the other side waits for it); null: the
 * envelope's own PDF.
 */
onDocumentSigning(CONTRACT_PURPOSE, async (tx, document) => {
  const context = document.context as Partial<ContractSigningContext>;
  if (typeof context.contractId !== 'number' || (context.side !== 'sender' && context.side !== 'beneficiary')) return null;
  const row = await lockContract(tx, context.contractId);
  if (!row) return null;
  return signedPdfOf(tx, context.side === 'sender' ? row.beneficiarySignedDocumentId : row.senderSignedDocumentId);
});

/** Records a side's signature (in the signing transaction); registered once, at module load. */
onDocumentSigned(CONTRACT_PURPOSE, async (tx, signed) => {
  const context = signed.context as Partial<ContractSigningContext>;
  if (typeof context.contractId !== 'number' || (context.side !== 'sender' && context.side !== 'beneficiary')) throw notSignable('unknown');
  const nowMs = signed.signedAt.getTime();
  const events: { customerId: number; event: Record<string, unknown> & { type: string } }[] = [];
  const publish: PublishAfterCommit = (customerId, event) => events.push({ customerId, event });

  const locked = await lockContract(tx, context.contractId);
  if (!locked) throw notSignable('unknown');
  const row = await advance(tx, locked, nowMs, publish);
  const customerId = context.side === 'sender' ? row.senderId : row.beneficiaryId;
  if (signed.customerId !== customerId || !contractActions(factsOf(row), customerId).includes('sign')) throw notSignable(row.status);

  const [doc] = await tx
    .select({ id: esignDocuments.id })
    .from(esignDocuments)
    .where(and(eq(esignDocuments.envelopeId, signed.envelopeId), eq(esignDocuments.kind, signed.kind)));
  const senderSigned = context.side === 'sender' || row.senderSignedAt !== null;
  const beneficiarySigned = context.side === 'beneficiary' || row.beneficiarySignedAt !== null;
  const identification = senderSigned && beneficiarySigned && (await payerIdentified(tx, row.senderId)) ? 'SUCCESS' : row.identificationStatus;
  const status = statusAfterSignatures({
    senderSigned,
    beneficiarySigned,
    identification: identification as 'NEW' | 'PROCESSING' | 'SUCCESS' | 'FAILED',
    activeFromMs: row.activeFrom.getTime(),
    nowMs,
  });
  const [next] = await tx
    .update(contracts)
    .set({
      ...(context.side === 'sender'
        ? { senderSignedAt: signed.signedAt, senderSignedDocumentId: doc?.id ?? null }
        : { beneficiarySignedAt: signed.signedAt, beneficiarySignedDocumentId: doc?.id ?? null }),
      identificationStatus: identification,
      status,
      updatedAt: signed.signedAt,
    })
    .where(eq(contracts.id, row.id))
    .returning();
  await auditContract(tx, signed.createdByUserId, customerId, 'contractSign', { contractId: row.id, side: context.side, status, envelopeId: signed.envelopeId });
  await notifyOther(tx, publish, next!, customerId, 'contractSigned', nowMs);
  if (status === 'ACTIVE') await notifyBoth(tx, publish, next!, 'contractActive', nowMs);

  const publisher = publisherRef;
  if (publisher && events.length > 0 && !(await publisher.stage?.(tx, events))) {
    setImmediate(() => {
      for (const e of events) publisher.publish(e.customerId, e.event).catch(() => undefined);
    });
  }
  return null;
});
