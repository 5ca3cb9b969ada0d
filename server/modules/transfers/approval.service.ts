/**
 * How a pending transfer is approved (document 2 §4 "Approval modes"; issue 4 §3), by the acting
 * customer's transaction_approve_mode, with the acting user's own means:
 *
 * - sms: a 6-digit code through the SMS outbox to the primary confirmed phone of the user's own
 *   customer; only its sha256 is kept (transfer_approvals.code_hash); resendable once per
 *   APPROVAL_RESEND_INTERVAL_S with a new code (the old one stops working);
 * - otp: the code of the user's authenticator (users.totp_secret), each time step accepted once
 *   (used_totp_steps, shared with sign-in: a code that signed in cannot also approve a payment);
 * - approvalCode: the user's approval code (users.approval_code_hash, argon2id, as two-step sets it);
 * - push: an approval request of kind 'transfer' to the user's linked phones (the login method),
 *   answered on the phone; its hook (transfers.service.ts approvedByDevice) posts or rejects.
 *
 * Wrong answers count in transfer_approvals.attempts; at APPROVAL_MAX_ATTEMPTS the transfer is
 * rejected, so a code cannot be guessed (10^6 codes, 5 tries).
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { ApproveMethod } from '../../../api/devices.ts';
import { enqueueSms } from '../../adapters/outbox.ts';
import type { Tx } from '../../db/types.ts';
import { devices, usedTotpSteps } from '../auth/auth.tables.ts';
import type { ApprovalDetails, TransferApprovalDetails } from '../auth/approvals.service.ts';
import { sha256Hex, verifyPassword } from '../auth/crypto.ts';
import { matchTotpStep } from '../auth/totp.ts';
import { maskPhone } from '../auth/tokens.service.ts';
import { phones } from '../customers/customers.tables.ts';
import { MethodFailure } from '../method-types.ts';
import { transferApprovals, type approveTypes } from './transfers.tables.ts';

export const APPROVAL_MAX_ATTEMPTS = 5;
export const APPROVAL_RESEND_INTERVAL_S = 30;
export const APPROVAL_CODE_DIGITS = 6;

export type ApproveType = (typeof approveTypes)[number];
export type TransferApprovalRow = typeof transferApprovals.$inferSelect;

export const ApprovalMessages = {
  noPhone: 'Add a confirmed phone number to approve transfers by SMS',
  noAuthenticator: 'Set up an authenticator app to approve transfers',
  noApprovalCode: 'Set an approval code to approve transfers',
  noPhoneLinked: 'Link a phone to approve transfers on it',
  pushUnavailable: 'Approval on a phone is not available',
  resendTooSoon: `The code was just sent; you can ask for a new one ${APPROVAL_RESEND_INTERVAL_S} seconds after the last`,
  nothingToResend: 'Nothing to resend: enter the code from your authenticator app or your approval code',
  approveOnPhone: 'Approve this transfer on your phone',
} as const;

/** What the platform's approvals service offers transfers (server/modules/auth/approvals.service.ts). */
export interface TransferApprovalsPort {
  createTransferApproval(
    tx: Tx,
    input: { userId: number; details: ApprovalDetails; transfer: TransferApprovalDetails; expiresAt: Date },
  ): Promise<{ keyHash: string; deviceCount: number }>;
  closeRequest(tx: Tx, keyHash: string, status: 'declined' | 'expired'): Promise<void>;
  redeliver(tx: Tx, keyHash: string): Promise<boolean>;
}

export interface ApprovingUser {
  id: number;
  email: string;
  /** the user's own customer (their phones) */
  customerId: number;
  totpSecret: string | null;
  approvalCodeHash: string | null;
}

export interface ApprovalPreparation {
  phone: { countryCode: string; number: string } | null;
}

/**
 * Checks, before anything is held, that the user can approve by the mode at all (TA1 otherwise:
 * nothing changes). Returns what starting the approval needs.
 */
export async function prepareApproval(tx: Tx, mode: ApproveType, user: ApprovingUser, pushAvailable: boolean): Promise<ApprovalPreparation> {
  if (mode === 'sms') {
    const [phone] = await tx
      .select({ countryCode: phones.phoneCountryCode, number: phones.phone })
      .from(phones)
      .where(and(eq(phones.customerId, user.customerId), eq(phones.status, 'primary'), eq(phones.confirmed, true)))
      .limit(1);
    if (!phone) throw new MethodFailure('TA1', ApprovalMessages.noPhone);
    return { phone };
  }
  if (mode === 'otp' && !user.totpSecret) throw new MethodFailure('TA1', ApprovalMessages.noAuthenticator);
  if (mode === 'approvalCode' && !user.approvalCodeHash) throw new MethodFailure('TA1', ApprovalMessages.noApprovalCode);
  if (mode === 'push') {
    if (!pushAvailable) throw new MethodFailure('TA1', ApprovalMessages.pushUnavailable);
    const [linked] = await tx
      .select({ n: count() })
      .from(devices)
      .where(and(eq(devices.userId, user.id), eq(devices.status, 'approved'), sql`${devices.approveMethodIds} @> ${JSON.stringify([ApproveMethod.login])}::jsonb`));
    if ((linked?.n ?? 0) === 0) throw new MethodFailure('TA1', ApprovalMessages.noPhoneLinked);
  }
  return { phone: null };
}

export function newApprovalCode(): string {
  return String(randomInt(0, 10 ** APPROVAL_CODE_DIGITS)).padStart(APPROVAL_CODE_DIGITS, '0');
}

/** The SMS text: what is approved, and a warning (never logged: it carries the code). */
export function approvalSmsText(code: string, what: { amount: string; currency: string; payeeName: string }, ttlMinutes: number): string {
  const payee = what.payeeName.length > 60 ? `${what.payeeName.slice(0, 57)}...` : what.payeeName;
  return `${code} is your code to approve the transfer of ${what.amount} ${what.currency} to ${payee}. It expires in ${ttlMinutes} minutes. Never share it.`;
}

/** Sends an SMS code in the caller's transaction; returns its hash and the masked phone. */
export async function sendSmsCode(
  tx: Tx,
  phone: { countryCode: string; number: string },
  what: { amount: string; currency: string; payeeName: string },
  ttlMinutes: number,
): Promise<{ codeHash: string; sentTo: string }> {
  const code = newApprovalCode();
  await enqueueSms(tx, { to: `+${phone.countryCode}${phone.number}`, text: approvalSmsText(code, what, ttlMinutes) });
  return { codeHash: sha256Hex(code), sentTo: maskPhone(phone.countryCode, phone.number) };
}

function sameSha256(hashHex: string, code: string): boolean {
  const a = Buffer.from(hashHex, 'hex');
  const b = Buffer.from(sha256Hex(code), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type CodeCheck = { ok: true } | { ok: false; reason: 'wrong' | 'used' };

/**
 * Checks an answer by the approval's method. An authenticator step that matches is recorded in
 * the caller's transaction (once per user, shared with sign-in), so it can never approve twice.
 */
export async function checkApprovalCode(tx: Tx, approval: TransferApprovalRow, user: ApprovingUser, code: string, nowMs: number): Promise<CodeCheck> {
  if (approval.method === 'sms') {
    return approval.codeHash && /^\d{6}$/.test(code) && sameSha256(approval.codeHash, code) ? { ok: true } : { ok: false, reason: 'wrong' };
  }
  if (approval.method === 'otp') {
    if (!user.totpSecret) return { ok: false, reason: 'wrong' };
    const step = matchTotpStep(user.totpSecret, code, nowMs);
    if (step === null) return { ok: false, reason: 'wrong' };
    const recorded = await tx
      .insert(usedTotpSteps)
      .values({ userId: user.id, step, usedAt: new Date(nowMs) })
      .onConflictDoNothing()
      .returning({ step: usedTotpSteps.step });
    return recorded.length > 0 ? { ok: true } : { ok: false, reason: 'used' };
  }
  if (approval.method === 'approvalCode') {
    if (!user.approvalCodeHash || !/^\d{4,32}$/.test(code)) return { ok: false, reason: 'wrong' };
    return (await verifyPassword(user.approvalCodeHash, code)) ? { ok: true } : { ok: false, reason: 'wrong' };
  }
  return { ok: false, reason: 'wrong' };
}
