/**
 * Named methods of documents (api/documents.ts): the customer's uploads, inquiry, delete and the
 * identity summary; the administrator's review queue and decisions. Every customer call acts for
 * the acting customer only (another customer's document id answers ENOA, like an unknown one);
 * every change writes its audit entry (never a file's content or a document number).
 */
import { and, asc, count, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { ADMIN_REVIEW_PAGE_MAX, documentMethods } from '../../../api/documents.ts';
import { DocumentCategory, documentState, DocumentStatus, IN_REVIEW_STATUSES } from '../../../api/verification.ts';
import type { Tx } from '../../db/types.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { notify } from '../notifications/notify.ts';
import { displayName } from '../customers/customers.methods.ts';
import { MethodFailure, type Caller, type HandlerTable, type MethodContext } from '../method-types.ts';
import {
  customerDocumentRows,
  documentColumns,
  documentsToWire,
  isoDay,
  ownDocument,
  prepareDocument,
  storeDocument,
  type DocumentRow,
} from './documents.service.ts';
import { customerAddresses, customerDocuments, identityJobs } from './profile.tables.ts';
import { representativeJobDecided } from '../business/representative-link.ts';
import { applyPendingUsernameChanges, ValidationFailure } from './profile.service.ts';
import { recomputeVerified } from './verification.service.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';

export interface DocumentHandlerOptions {
  now: () => number;
}

export function requireCaller(ctx: MethodContext): { caller: Caller; customerId: number } {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { caller: ctx.caller, customerId: ctx.customerId };
}

export async function callerLogin(ctx: MethodContext, caller: Caller): Promise<string> {
  const [u] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, caller.userId));
  if (!u) throw new MethodFailure('AU', 'Unknown user');
  return u.email;
}

/** A document any customer holds (admin), with its sub-documents; TA1 when there is none. */
async function anyDocument(tx: Tx, documentId: number): Promise<DocumentRow> {
  const [row] = await tx.select(documentColumns).from(customerDocuments).where(eq(customerDocuments.id, documentId)).for('update');
  if (!row || row.statusId === DocumentStatus.deleted) throw new MethodFailure('TA1', 'No such document', [vf('documentId', VfCode.notDocument)]);
  if (row.parentId !== null) {
    throw new MethodFailure('TA1', 'Decide on the main document', [vf('documentId', VfCode.subDocument)]);
  }
  return row;
}

/** Updates a main document and its sub-documents alike; returns the main row. */
async function updateWithSubs(tx: Tx, documentId: number, values: Partial<typeof customerDocuments.$inferInsert>): Promise<DocumentRow> {
  const rows = await tx
    .update(customerDocuments)
    .set(values)
    .where(or(eq(customerDocuments.id, documentId), eq(customerDocuments.parentId, documentId)))
    .returning(documentColumns);
  return rows.find((r) => r.id === documentId)!;
}

const decisionStatus = {
  confirm: DocumentStatus.confirmed,
  reject: DocumentStatus.rejected,
  nameMismatch: DocumentStatus.nameMismatch,
  expire: DocumentStatus.expired,
  investigate: DocumentStatus.underInvestigation,
} as const;

/** What an address's status becomes after a decision on one of its documents. */
const addressStatusAfter = {
  confirm: 'confirmed',
  reject: 'rejected',
  nameMismatch: 'nameMismatch',
  expire: 'unconfirmed',
  investigate: 'pending',
} as const;

export function createDocumentHandlers(options: DocumentHandlerOptions): HandlerTable<typeof documentMethods> {
  const today = () => isoDay(options.now());
  // Who may change a company's documents is the rights table's (api/rights.ts), enforced by the endpoint.
  return {
    async customerJumioDocumentCreate(input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const [customer] = await tx.select().from(customers).where(eq(customers.id, customerId));
      if (!customer) throw new MethodFailure('ENOA', 'No such customer');
      if (input.addressId !== undefined) {
        const [address] = await tx
          .select({ id: customerAddresses.id })
          .from(customerAddresses)
          .where(and(eq(customerAddresses.id, input.addressId), eq(customerAddresses.customerId, customerId), isNull(customerAddresses.deletedAt)));
        if (!address) throw new MethodFailure('ENOA', 'No such address');
      }
      const errors: CodedValidationError[] = [];
      const doc = {
        customerId,
        residenceCountryCode: customer.residenceCountryCode,
        meta: input,
        addressId: input.addressId ?? null,
        createdUsername: await callerLogin(ctx, caller),
        createdByUserId: caller.userId,
        frontField: 'front',
        secondFieldPrefix: '',
        paramPrefix: '',
      };
      const prepared = await prepareDocument(tx, doc, ctx.files, today(), errors);
      const unknownFiles = ctx.files.filter((f) => !['front', 'back', 'registrationStamp'].includes(f.fieldName));
      for (const f of unknownFiles) errors.push(vf(f.fieldName, VfCode.unknownFileField));
      if (!prepared || errors.length > 0) throw new ValidationFailure(errors);
      const rows = await storeDocument(tx, doc, prepared, new Date(options.now()));
      ctx.audit({
        documentIds: rows.map((r) => r.id),
        categoryId: input.categoryId,
        documentTypeId: input.documentTypeId,
        isDueDiligence: input.isDueDiligence === 1,
        files: rows.map((r) => ({ side: r.side, mimeType: r.mimeType, sizeBytes: r.sizeBytes, sha256: r.sha256 })),
      });
      return { documents: await documentsToWire(tx, rows, ctx.lang) };
    },

    async documentsInquiry(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const rows = await customerDocumentRows(ctx.db, customerId, input.categoryId);
      return { documents: await documentsToWire(ctx.db, rows, ctx.lang) };
    },

    async customerDocumentDelete(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownDocument(tx, customerId, input.documentId);
      if (row.parentId !== null) {
        throw new MethodFailure('TA1', 'Delete the main document', [vf('documentId', VfCode.pageOfOther)]);
      }
      // A confirmed document is what the provider relied on to verify the customer: it stays.
      if (row.statusId === DocumentStatus.confirmed) {
        throw new MethodFailure('TA1', 'A confirmed document cannot be deleted', [vf('documentId', VfCode.documentConfirmed)]);
      }
      await updateWithSubs(tx, row.id, { statusId: DocumentStatus.deleted });
      ctx.audit({ documentId: row.id, previousStatusId: row.statusId });
      return {};
    },

    async identityGet(_input, ctx) {
      const { customerId } = requireCaller(ctx);
      const [customer] = await ctx.db.select().from(customers).where(eq(customers.id, customerId));
      if (!customer) throw new MethodFailure('ENOA', 'No such customer');
      const rows = await customerDocumentRows(ctx.db, customerId);
      const wire = await documentsToWire(ctx.db, rows, ctx.lang);
      const identityRows = wire.filter((d) => d.categoryId === DocumentCategory.identity && !d.isSubDocument);
      const factsOf = (category: number) =>
        rows.filter((r) => r.parentId === null && r.categoryId === category).map((r) => ({ statusId: r.statusId, uploaded: r.uploaded.toISOString(), expiresDate: r.expiresDate }));
      const required = !customer.verified;
      const residenceCategory = customer.customerType === 'business' ? DocumentCategory.businessAddress : DocumentCategory.address;
      const [video] = await ctx.db
        .select({ id: identityJobs.workflowRunId, status: identityJobs.status, rejectReason: identityJobs.rejectReason, expiresAt: identityJobs.expiresAt })
        .from(identityJobs)
        .where(and(eq(identityJobs.customerId, customerId), eq(identityJobs.kind, 'video')))
        .orderBy(asc(identityJobs.createdAt))
        .then((r) => r.slice(-1));
      // An expired job, or a pending one whose link lapsed, is no video identity (the customer starts a new one).
      const lapsed = video?.status === 'pending' && video.expiresAt.getTime() <= options.now();
      const videoStatus = !video || lapsed || video.status === 'expired' ? 'none' : video.status;
      return {
        identity: {
          documents: identityRows.map((d) => ({
            id: d.id,
            type: d.documentType,
            typeId: d.documentTypeId,
            number: d.number,
            status: d.statusId,
            issuedDate: d.issuedDate,
            expiresDate: d.expiresDate,
            rejectReason: d.rejectReason,
          })),
          videoIdentity: { status: videoStatus, jobId: video?.id ?? null, rejectReason: video?.status === 'rejected' ? video.rejectReason : null },
          proofOfResidence: { status: documentState(factsOf(residenceCategory), today(), required) },
          identity: { status: documentState(factsOf(DocumentCategory.identity), today(), required) },
        },
      };
    },

    async adminReviewQueue(input, ctx) {
      const { page, pageSize } = input;
      const inReview = and(
        inArray(customerDocuments.statusId, [...IN_REVIEW_STATUSES]),
        isNull(customerDocuments.parentId),
        input.customerId === undefined ? undefined : eq(customerDocuments.customerId, input.customerId),
      );
      const [total] = await ctx.db.select({ n: count() }).from(customerDocuments).where(inReview);
      const rows = await ctx.db
        .select({ doc: documentColumns, customer: customers })
        .from(customerDocuments)
        .innerJoin(customers, eq(customers.id, customerDocuments.customerId))
        .where(inReview)
        .orderBy(asc(customerDocuments.uploaded), asc(customerDocuments.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      const subs =
        rows.length === 0
          ? []
          : await ctx.db
              .select(documentColumns)
              .from(customerDocuments)
              .where(inArray(customerDocuments.parentId, rows.map((r) => r.doc.id)))
              .orderBy(asc(customerDocuments.id));
      const wire = await documentsToWire(ctx.db, [...rows.map((r) => r.doc), ...subs], ctx.lang);
      const byId = new Map(wire.map((w) => [w.id, w]));
      // The built-in provider's jobs waiting for a decision (a job whose link expired is the customer's to restart).
      const jobsWaiting = and(
        eq(identityJobs.status, 'pending'),
        eq(identityJobs.provider, 'review'),
        gt(identityJobs.expiresAt, new Date(options.now())),
        input.customerId === undefined ? undefined : eq(identityJobs.customerId, input.customerId),
      );
      const [jobsTotal] = await ctx.db.select({ n: count() }).from(identityJobs).where(jobsWaiting);
      const jobs = await ctx.db
        .select({ job: identityJobs, customer: customers })
        .from(identityJobs)
        .innerJoin(customers, eq(customers.id, identityJobs.customerId))
        .where(jobsWaiting)
        .orderBy(asc(identityJobs.createdAt), asc(identityJobs.id))
        .limit(ADMIN_REVIEW_PAGE_MAX);
      return {
        items: rows.map((r) => ({
          document: byId.get(r.doc.id)!,
          customerId: r.customer.id,
          customerName: displayName(r.customer),
          customerType: r.customer.customerType,
          subDocuments: subs.filter((s) => s.parentId === r.doc.id).map((s) => byId.get(s.id)!),
        })),
        total: total?.n ?? 0,
        page,
        pageSize,
        identityJobs: jobs.map(({ job, customer }) => ({
          workflowRunId: job.workflowRunId,
          kind: job.kind,
          provider: job.provider,
          channel: job.channel,
          created: job.createdAt.toISOString(),
          expires: job.expiresAt.toISOString(),
          customerId: customer.id,
          customerName: displayName(customer),
          customerType: customer.customerType,
        })),
        identityJobsTotal: jobsTotal?.n ?? 0,
      };
    },

    async adminReassignDocumentList(input, ctx) {
      const [customer] = await ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.id, input.customerId));
      if (!customer) throw new MethodFailure('TA1', 'No such customer', [vf('customerId', VfCode.notCustomer)]);
      return { documents: await documentsToWire(ctx.db, await customerDocumentRows(ctx.db, input.customerId), ctx.lang) };
    },

    async adminDocumentDecide(input, ctx) {
      const tx = ctx.db as Tx;
      const caller = ctx.caller!;
      const reason = input.reason ?? '';
      if ((input.decision === 'reject' || input.decision === 'nameMismatch') && reason === '') {
        throw new ValidationFailure([vf('reason', VfCode.required)]);
      }
      const row = await anyDocument(tx, input.documentId);
      const statusId = decisionStatus[input.decision];
      if (row.statusId === statusId) {
        throw new MethodFailure('TA1', 'The document already has this status', [vf('decision', VfCode.statusAlready)]);
      }
      const updated = await updateWithSubs(tx, row.id, {
        statusId,
        rejectReason: input.decision === 'reject' || input.decision === 'nameMismatch' ? reason : null,
        decidedByUserId: caller.userId,
        decidedAt: new Date(options.now()),
      });
      if (row.addressId !== null) {
        await tx.update(customerAddresses).set({ status: addressStatusAfter[input.decision], updatedAt: new Date(options.now()) }).where(eq(customerAddresses.id, row.addressId));
      }
      if (input.decision === 'confirm' && row.categoryId === DocumentCategory.identity) {
        await applyPendingUsernameChanges(tx, row.customerId, options.now(), ctx.publish);
      }
      const customerVerified = await recomputeVerified(tx, row.customerId, today());
      // document 3 §2: a document problem is a notification leading to the profile
      if (input.decision === 'reject' || input.decision === 'nameMismatch') {
        await notify(tx, ctx.publish, { customerId: row.customerId, type: 'documentRejected', params: { reason }, target: { kind: 'profile' }, nowMs: options.now() });
      }
      ctx.audit({
        documentId: row.id,
        customerId: row.customerId,
        decision: input.decision,
        fromStatusId: row.statusId,
        toStatusId: statusId,
        ...(reason ? { reason } : {}),
        customerVerified,
      });
      return { document: (await documentsToWire(tx, [updated], ctx.lang))[0]!, customerVerified };
    },

    async adminDocumentAssign(input, ctx) {
      const tx = ctx.db as Tx;
      const row = await anyDocument(tx, input.documentId);
      if (row.customerId === input.toCustomerId) {
        throw new MethodFailure('TA1', 'The document already belongs to this customer', [vf('toCustomerId', VfCode.ownerAlready)]);
      }
      const [target] = await tx.select({ id: customers.id, isProvider: customers.isProvider }).from(customers).where(eq(customers.id, input.toCustomerId));
      if (!target || target.isProvider) throw new MethodFailure('TA1', 'No such customer', [vf('toCustomerId', VfCode.notCustomer)]);
      // The address it proved belongs to the first customer: the moved document proves no address.
      const updated = await updateWithSubs(tx, row.id, { customerId: input.toCustomerId, addressId: null });
      ctx.audit({ documentId: row.id, fromCustomerId: row.customerId, toCustomerId: input.toCustomerId });
      return { document: (await documentsToWire(tx, [updated], ctx.lang))[0]! };
    },

    async adminIdentityJobDecide(input, ctx) {
      const tx = ctx.db as Tx;
      const reason = input.reason ?? '';
      if (input.decision === 'reject' && reason === '') throw new ValidationFailure([vf('reason', VfCode.required)]);
      const [job] = await tx.select().from(identityJobs).where(eq(identityJobs.workflowRunId, input.workflowRunId)).for('update');
      const refuse = (error: CodedValidationError) => new MethodFailure('TA1', 'The job cannot be decided', [error]);
      if (!job) throw refuse(vf('workflowRunId', VfCode.notJob));
      if (job.provider !== 'review') throw refuse(vf('workflowRunId', VfCode.jobByProvider, { provider: job.provider }));
      if (job.status !== 'pending') throw refuse(vf('workflowRunId', VfCode.jobDecided, { status: job.status }));
      // The customer's link has expired: the customer starts a new job (it replaces this one).
      if (job.expiresAt.getTime() <= options.now()) throw refuse(vf('workflowRunId', VfCode.jobExpired));
      const decidedAt = new Date(options.now());
      const status = input.decision === 'approve' ? ('approved' as const) : ('rejected' as const);
      await tx
        .update(identityJobs)
        .set({ status, decidedAt, decidedByUserId: ctx.caller!.userId, rejectReason: status === 'rejected' ? reason : null })
        .where(eq(identityJobs.id, job.id));
      // A job started through a representative's link moves that representative's status (api/business-declarations.ts).
      const representativeId = await representativeJobDecided(tx, job.id, status);
      // A rejected video identity is a required action (§4); an approval may complete verification.
      const customerVerified = await recomputeVerified(tx, job.customerId, today());
      ctx.audit({
        workflowRunId: job.workflowRunId,
        customerId: job.customerId,
        ...(representativeId === null ? {} : { representativeId }),
        kind: job.kind,
        decision: input.decision,
        ...(reason ? { reason } : {}),
        customerVerified,
      });
      return {
        job: { workflowRunId: job.workflowRunId, kind: job.kind, status, rejectReason: status === 'rejected' ? reason : null, decided: decidedAt.toISOString() },
        customerVerified,
      };
    },

    async adminDocumentRemove(input, ctx) {
      const tx = ctx.db as Tx;
      const row = await anyDocument(tx, input.documentId);
      await updateWithSubs(tx, row.id, { statusId: DocumentStatus.deleted, decidedByUserId: ctx.caller!.userId, decidedAt: new Date(options.now()) });
      ctx.audit({ documentId: row.id, customerId: row.customerId, fromStatusId: row.statusId });
      return {};
    },
  };
}

/** The handlers on the real clock (app.ts replaces them with its own clock). */
export const documentHandlers = createDocumentHandlers({ now: Date.now });
