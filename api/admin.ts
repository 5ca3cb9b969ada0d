/** Administrator reads (document 1 §2 admin overview, §6 administrator role). */
import * as v from 'valibot';
import { defineMethod, MAX_ID } from './method.ts';

export const ADMIN_CUSTOMER_PAGE_MAX = 50;

export const AdminCustomerSchema = v.object({
  customerId: v.number(),
  /** the company name of a business customer, else first and last name */
  name: v.string(),
  customerType: v.picklist(['personal', 'business']),
  verified: v.boolean(),
  limited: v.boolean(),
  /** ISO 8601 */
  customerCreationDate: v.string(),
});
export type AdminCustomer = v.InferOutput<typeof AdminCustomerSchema>;

/** Customers, newest first, one page at a time. */
export const adminCustomerList = defineMethod({
  name: 'adminCustomerList',
  access: 'admin',
  mutation: false,
  request: {
    page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more'), v.maxValue(MAX_ID, 'is too large')), 1),
    pageSize: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more'), v.maxValue(ADMIN_CUSTOMER_PAGE_MAX, `must be ${ADMIN_CUSTOMER_PAGE_MAX} or less`)),
      20,
    ),
  },
  response: {
    customers: v.array(AdminCustomerSchema),
    total: v.number(),
    page: v.number(),
    pageSize: v.number(),
  },
});

/* ------------------------------------------------------------- account recovery review */

export const REJECT_COMMENT_MAX = 500;
export const recoveryFileRoute = '/api/v1/admin/account-recovery/:taskId/files/:kind';

export const RecoveryReviewItemSchema = v.object({
  taskId: v.string(),
  /** ISO 8601: requested, and until when the account's e-mails may still cancel */
  created: v.string(),
  cancelUntil: v.string(),
  /** the login e-mail the caller named, and the new address the code would go to (unmasked: the administrator decides) */
  email: v.string(),
  recoveryEmail: v.string(),
  /** what the caller typed */
  firstName: v.string(),
  lastName: v.string(),
  dob: v.string(),
  /** the account of the login e-mail; null when no account has it (reject: nothing to recover) */
  customerId: v.nullable(v.number()),
  customerName: v.nullable(v.string()),
  /** the record's date of birth, to compare with what was typed (null when none) */
  recordDob: v.nullable(v.string()),
  /** typed names and date of birth equal the record's (a hint only: the documents decide) */
  personalDataMatches: v.boolean(),
  files: v.array(v.object({ kind: v.picklist(['document', 'selfie']), mimeType: v.string(), sizeBytes: v.number() })),
});
export type RecoveryReviewItem = v.InferOutput<typeof RecoveryReviewItemSchema>;

/** Personal-data recoveries whose documents arrived and wait for a decision, oldest first. */
export const adminRecoveryTaskList = defineMethod({
  name: 'adminRecoveryTaskList',
  access: 'admin',
  mutation: false,
  request: {},
  response: { tasks: v.array(RecoveryReviewItemSchema), total: v.number() },
});

export const RECOVERY_DECISIONS = ['approve', 'reject'] as const;

/**
 * Approve (a reset code goes to the recovery e-mail, a notice to the account's e-mails) or reject
 * with a reason shown to the caller and whether a new request may follow (isRetryable).
 */
export const adminRecoveryTaskDecide = defineMethod({
  name: 'adminRecoveryTaskDecide',
  access: 'admin',
  mutation: true,
  request: {
    taskId: v.pipe(v.string(), v.uuid('must be a task id')),
    decision: v.picklist(RECOVERY_DECISIONS, 'must be approve or reject'),
    /** required to reject; shown to the caller */
    reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(REJECT_COMMENT_MAX, `must be at most ${REJECT_COMMENT_MAX} characters`))),
    /** a rejection: may the caller ask again (default false) */
    isRetryable: v.optional(v.boolean()),
  },
  response: { taskId: v.string(), verificationStatus: v.picklist(['verified', 'rejected']), isRetryable: v.boolean() },
});

export const adminMethods = { adminCustomerList, adminRecoveryTaskList, adminRecoveryTaskDecide };
