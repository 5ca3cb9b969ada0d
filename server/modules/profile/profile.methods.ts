/**
 * Named methods of the profile (api/profile.ts): phones, e-mails and the username, addresses with
 * their documents, tax number, KYC, limit reasons, due diligence, the verification inputs, and the
 * administrator's account actions. Ids of another customer's phone, e-mail, address or request
 * answer ENOA (alike an unknown id) and change nothing.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { profileMethods, type Address, type Phone } from '../../../api/profile.ts';
import { LimitActionType, MAX_EMAILS, MAX_PHONES, PROFILE_CODE_TTL_S } from '../../../api/profile.ts';
import { addDays, DocumentCategory, documentState } from '../../../api/verification.ts';
import { enqueueMail, enqueueSms } from '../../adapters/outbox.ts';
import type { TransferActor } from '../transfers/transfers.service.ts';
import type { Db, Tx } from '../../db/types.ts';
import { activeVariant } from '../../../variants/index.ts';
import { maskPhone } from '../auth/tokens.service.ts';
import { customerAccess, customers, phones, users } from '../customers/customers.tables.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { callerLogin, requireCaller } from './documents.methods.ts';
import {
  ADDRESS_DOCUMENT_OUT_OF_DATE_DAYS,
  customerDocumentRows,
  documentsToWire,
  isoDay,
  prepareDocument,
  storeDocument,
  type DocumentRow,
  type NewDocument,
  type PreparedDocument,
} from './documents.service.ts';
import { completeUsernameChange, issueCode, loginTaken, logUsernameEvent, useCode, ValidationFailure } from './profile.service.ts';
import {
  customerAddresses,
  customerEmails,
  dueDiligenceInfo,
  kycInfo,
  kycRequests,
  limitReasons,
  usernameChangeLogs,
  usernameChangeRequests,
} from './profile.tables.ts';
import { recomputeVerified, verificationInputs } from './verification.service.ts';
import { identityProviderFromConfig, type IdentityVerificationProvider } from '../../adapters/identity-verification.ts';
import { randomToken, sha256Hex } from '../auth/crypto.ts';
import { identityJobs } from './profile.tables.ts';
import { IDENTITY_JOB_TTL_S } from './profile.routes.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import { checkTaxNumberField } from '../../../api/tax-numbers.ts';

export interface ProfileHandlerOptions {
  now: () => number;
  /** the provider's name in SMS and e-mail texts */
  providerName: string;
  /** identity verification (usernameChangeRequestIdentityJob); the configured one unless given */
  identityProvider?: IdentityVerificationProvider;
  /**
   * The cards an address replacement affects (server/modules/cards): the cards
   * addressReplacementCompatibility lists as to be canceled are canceled in the same transaction.
   * Absent where no card module runs (tests of the profile alone).
   */
  cards?: { addressReplaced(tx: Tx, actor: TransferActor, countryCode: string, oldAddressId: number): Promise<number[]> };
}

type PhoneRow = typeof phones.$inferSelect;
type EmailRow = typeof customerEmails.$inferSelect;
type AddressRow = typeof customerAddresses.$inferSelect;

const phoneWire = (p: PhoneRow): Phone => ({
  id: p.id,
  status: p.status === 'primary' ? 'Primary' : 'Secondary',
  phoneCountryCode: p.phoneCountryCode,
  phone: p.phone,
  phoneType: p.phoneType,
  confirmed: p.confirmed,
});

const emailWire = (e: EmailRow) => ({
  id: e.id,
  emailAddress: e.emailAddress,
  status: e.status === 'primary' ? ('Primary' as const) : ('Secondary' as const),
  confirmed: e.confirmed,
  lastModified: e.lastModified.toISOString(),
});

async function ownPhone(db: Db | Tx, customerId: number, phoneId: number, lock = false): Promise<PhoneRow> {
  const q = db.select().from(phones).where(and(eq(phones.id, phoneId), eq(phones.customerId, customerId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new MethodFailure('ENOA', 'No such phone');
  return row;
}

async function ownEmail(db: Db | Tx, customerId: number, emailId: number): Promise<EmailRow> {
  const [row] = await db.select().from(customerEmails).where(and(eq(customerEmails.id, emailId), eq(customerEmails.customerId, customerId)));
  if (!row) throw new MethodFailure('ENOA', 'No such e-mail address');
  return row;
}

async function ownAddress(db: Db | Tx, customerId: number, addressId: number): Promise<AddressRow> {
  const [row] = await db
    .select()
    .from(customerAddresses)
    .where(and(eq(customerAddresses.id, addressId), eq(customerAddresses.customerId, customerId), isNull(customerAddresses.deletedAt)));
  if (!row) throw new MethodFailure('ENOA', 'No such address');
  return row;
}

/**
 * The login of the acting customer's owner (the user whose own customer it is) is its first
 * e-mail address: it is kept as the primary confirmed row of customer_emails, created when the
 * e-mails are first read or changed (the login was confirmed by activation).
 */
async function ensureLoginEmail(db: Db | Tx, customerId: number): Promise<string | null> {
  const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.customerId, customerId)).orderBy(asc(users.id)).limit(1);
  if (!owner) return null;
  const existing = await db.select({ id: customerEmails.id, status: customerEmails.status }).from(customerEmails).where(eq(customerEmails.customerId, customerId));
  if (existing.length === 0) {
    await db.insert(customerEmails).values({ customerId, emailAddress: owner.email, status: 'primary', confirmed: true }).onConflictDoNothing();
  }
  return owner.email;
}

async function addressWire(db: Db | Tx, row: AddressRow, docs: readonly DocumentRow[], ctx: MethodContext, today: string): Promise<Address> {
  const own = docs.filter((d) => d.addressId === row.id);
  const main = own.filter((d) => d.parentId === null && d.categoryId !== DocumentCategory.relationship);
  const state = documentState(
    main.map((d) => ({ statusId: d.statusId, uploaded: d.uploaded.toISOString(), expiresDate: d.expiresDate })),
    today,
  );
  const latestConfirmed = main.filter((d) => d.statusId === 2).at(-1);
  const outOfDate =
    state === 'expired' || state === 'expiredSoon' || (!!latestConfirmed?.issuedDate && latestConfirmed.issuedDate < addDays(today, -ADDRESS_DOCUMENT_OUT_OF_DATE_DAYS));
  return {
    addressId: row.id,
    addressType: row.addressType,
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    postalCode: row.postalCode,
    countryCode: row.countryCode,
    stateCode: row.stateCode,
    stateName: row.stateName,
    addressStatus: row.addressStatus,
    status: row.status,
    confirmed: row.status === 'confirmed',
    customerConfirmedAt: row.customerConfirmedAt?.toISOString() ?? null,
    uploadedDocuments: await documentsToWire(db, own, ctx.lang),
    isDocumentOutOfDate: outOfDate,
    isCardDocumentRequired: row.isCardDocumentRequired,
    isDocumentRequired: state === 'none' || state === 'rejected' || outOfDate,
  };
}

async function usernameRequestWire(db: Db | Tx, r: typeof usernameChangeRequests.$inferSelect) {
  const logs = await db.select().from(usernameChangeLogs).where(eq(usernameChangeLogs.requestId, r.id)).orderBy(asc(usernameChangeLogs.at), asc(usernameChangeLogs.id));
  return {
    requestId: r.id,
    desiredUsername: r.desiredUsername,
    status: r.status as 'active' | 'failed' | 'pending',
    logs: logs.map((l) => ({ event: l.event, at: l.at.toISOString() })),
  };
}

/** The caller's request by id (locked), or ENOA: another user's, canceled or unknown alike. */
async function ownUsernameRequest(tx: Tx, userId: number, requestId: number, includeCompleted = false) {
  const [r] = await tx
    .select()
    .from(usernameChangeRequests)
    .where(and(eq(usernameChangeRequests.id, requestId), eq(usernameChangeRequests.userId, userId)))
    .for('update');
  const statuses = includeCompleted ? ['active', 'pending', 'failed', 'completed'] : ['active', 'pending', 'failed'];
  if (!r || !statuses.includes(r.status)) throw new MethodFailure('ENOA', 'No such request');
  return r;
}

/** The caller's current username-change request (active, pending or failed), or null. */
async function currentUsernameRequest(db: Db | Tx, userId: number) {
  const [r] = await db
    .select()
    .from(usernameChangeRequests)
    .where(and(eq(usernameChangeRequests.userId, userId), inArray(usernameChangeRequests.status, ['active', 'pending', 'failed'])))
    .orderBy(desc(usernameChangeRequests.createdAt), desc(usernameChangeRequests.id))
    .limit(1);
  return r ?? null;
}

async function customerOr(db: Db | Tx, customerId: number, code: 'ENOA' | 'TA1' = 'ENOA') {
  const [c] = await db.select().from(customers).where(eq(customers.id, customerId));
  if (!c || c.isProvider) throw new MethodFailure(code, 'No such customer', code === 'TA1' ? [vf('customerId', VfCode.notCustomer)] : undefined);
  return c;
}

export function createProfileHandlers(options: ProfileHandlerOptions): HandlerTable<typeof profileMethods> {
  const { now } = options;
  const today = () => isoDay(now());
  /** read from the configuration on first use (an unavailable one fails that call, not the start) */
  let identityProvider: IdentityVerificationProvider | undefined;

  const sendPhoneCode = async (tx: Tx, phone: PhoneRow, codeChallenge?: string) => {
    const code = await issueCode(tx, { customerId: phone.customerId, purpose: 'phone', targetId: phone.id, nowMs: now(), ...(codeChallenge ? { codeChallenge } : {}) });
    await enqueueSms(tx, {
      to: `+${phone.phoneCountryCode}${phone.phone}`,
      text: `${options.providerName}: ${code} is your code to confirm this phone number. It expires in ${PROFILE_CODE_TTL_S / 60} minutes. Never share it.`,
    });
    return maskPhone(phone.phoneCountryCode, phone.phone);
  };

  // Who may change a company's profile is the rights table's (api/rights.ts), enforced by the endpoint.
  return {
    // ---- phones ----
    async profileInquiry(_input, ctx) {
      const { customerId } = requireCaller(ctx);
      const rows = await ctx.db.select().from(phones).where(eq(phones.customerId, customerId)).orderBy(asc(phones.id));
      return { phones: rows.map(phoneWire) };
    },

    async addPhone(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const existing = await tx.select().from(phones).where(eq(phones.customerId, customerId)).for('update');
      if (existing.length >= MAX_PHONES) throw new MethodFailure('TA1', `At most ${MAX_PHONES} phones`);
      if (existing.some((p) => p.phoneCountryCode === input.phoneCountryCode && p.phone === input.phone)) {
        throw new ValidationFailure([vf('phone', VfCode.phoneAlreadyYours)]);
      }
      const [row] = await tx
        .insert(phones)
        .values({ customerId, phoneCountryCode: input.phoneCountryCode, phone: input.phone, phoneType: input.phoneType, status: existing.length === 0 ? 'primary' : 'secondary' })
        .returning();
      ctx.audit({ phoneId: row!.id });
      return { phone: phoneWire(row!) };
    },

    async replacePhone(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownPhone(tx, customerId, input.phoneId, true);
      const clash = await tx
        .select({ id: phones.id })
        .from(phones)
        .where(and(eq(phones.customerId, customerId), eq(phones.phoneCountryCode, input.phoneCountryCode), eq(phones.phone, input.phone), ne(phones.id, row.id)));
      if (clash.length > 0) throw new ValidationFailure([vf('phone', VfCode.phoneAlreadyYours)]);
      const same = row.phoneCountryCode === input.phoneCountryCode && row.phone === input.phone;
      const [updated] = await tx
        .update(phones)
        .set({ phoneCountryCode: input.phoneCountryCode, phone: input.phone, phoneType: input.phoneType, confirmed: same ? row.confirmed : false })
        .where(eq(phones.id, row.id))
        .returning();
      ctx.audit({ phoneId: row.id, numberChanged: !same });
      return { phone: phoneWire(updated!) };
    },

    async phoneConfirmRequest(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownPhone(tx, customerId, input.phoneId, true);
      if (row.confirmed) throw new MethodFailure('TA1', 'The phone is confirmed already', [vf('phoneId', VfCode.confirmedAlready)]);
      const sentTo = await sendPhoneCode(tx, row);
      ctx.audit({ phoneId: row.id, codeSent: true });
      return { sentTo, expiresInSeconds: PROFILE_CODE_TTL_S };
    },

    async confirmPhone(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const answer = input.verification?.code ?? input.code;
      if (!answer || (input.code && input.verification)) {
        throw new ValidationFailure([vf('code', VfCode.codeOrVerification)]);
      }
      const row = await ownPhone(tx, customerId, input.phoneId, true);
      if (row.confirmed) throw new MethodFailure('TA1', 'The phone is confirmed already', [vf('phoneId', VfCode.confirmedAlready)]);
      ctx.audit({ phoneId: row.id });
      await useCode(tx, {
        purpose: 'phone',
        targetId: row.id,
        code: answer,
        codeVerifier: input.verification?.codeVerifier,
        nowMs: now(),
        param: input.verification ? 'verification.code' : 'code',
      });
      const [updated] = await tx.update(phones).set({ confirmed: true }).where(eq(phones.id, row.id)).returning();
      const verified = await recomputeVerified(tx, customerId, today());
      ctx.audit({ confirmed: true, customerVerified: verified });
      return { phone: phoneWire(updated!) };
    },

    // ---- e-mails and the username ----
    async emailInquiry(_input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      await ensureLoginEmail(ctx.db, customerId);
      const rows = await ctx.db.select().from(customerEmails).where(eq(customerEmails.customerId, customerId)).orderBy(asc(customerEmails.id));
      const request = await currentUsernameRequest(ctx.db, caller.userId);
      return {
        login: await callerLogin(ctx, caller),
        emails: rows.map(emailWire),
        usernameChangeRequest: request ? await usernameRequestWire(ctx.db, request) : null,
      };
    },

    async addEmail(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      await ensureLoginEmail(tx, customerId);
      const rows = await tx.select().from(customerEmails).where(eq(customerEmails.customerId, customerId)).for('update');
      if (rows.length >= MAX_EMAILS) throw new MethodFailure('TA1', `At most ${MAX_EMAILS} e-mail addresses`);
      if (rows.some((r) => r.emailAddress === input.emailAddress)) throw new ValidationFailure([vf('emailAddress', VfCode.emailAlreadyYours)]);
      const [row] = await tx
        .insert(customerEmails)
        .values({ customerId, emailAddress: input.emailAddress, status: rows.length === 0 ? 'primary' : 'secondary', confirmed: false, lastModified: new Date(now()) })
        .returning();
      ctx.audit({ emailId: row!.id });
      return { email: emailWire(row!) };
    },

    async deleteEmail(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownEmail(tx, customerId, input.emailId);
      if (row.status === 'primary') throw new MethodFailure('TA1', 'The primary address cannot be deleted', [vf('emailId', VfCode.primaryEmail)]);
      await tx.delete(customerEmails).where(eq(customerEmails.id, row.id));
      ctx.audit({ emailId: row.id });
      return {};
    },

    async setPrimaryEmail(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownEmail(tx, customerId, input.emailId);
      // Mail with codes and statements goes to the primary address: it must be confirmed.
      if (!row.confirmed) throw new MethodFailure('TA1', 'Confirm the address first', [vf('emailId', VfCode.notConfirmed)]);
      await tx.update(customerEmails).set({ status: 'secondary', lastModified: new Date(now()) }).where(and(eq(customerEmails.customerId, customerId), eq(customerEmails.status, 'primary')));
      const [updated] = await tx.update(customerEmails).set({ status: 'primary', lastModified: new Date(now()) }).where(eq(customerEmails.id, row.id)).returning();
      ctx.audit({ emailId: row.id });
      return { email: emailWire(updated!) };
    },

    async confirmRequestEmail(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownEmail(tx, customerId, input.emailId);
      if (row.confirmed) throw new MethodFailure('TA1', 'The address is confirmed already', [vf('emailId', VfCode.confirmedAlready)]);
      const code = await issueCode(tx, { customerId, purpose: 'email', targetId: row.id, nowMs: now() });
      await enqueueMail(tx, {
        to: row.emailAddress,
        subject: `${options.providerName}: confirm your e-mail address`,
        text: `Your code to confirm this e-mail address is ${code}. It expires in ${PROFILE_CODE_TTL_S / 60} minutes.\n\nIf you did not ask for it, ignore this message.`,
      });
      ctx.audit({ emailId: row.id, codeSent: true });
      return { expiresInSeconds: PROFILE_CODE_TTL_S };
    },

    async confirmEmail(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownEmail(tx, customerId, input.emailId);
      if (row.confirmed) throw new MethodFailure('TA1', 'The address is confirmed already', [vf('emailId', VfCode.confirmedAlready)]);
      ctx.audit({ emailId: row.id });
      await useCode(tx, { purpose: 'email', targetId: row.id, code: input.confirmationCode, nowMs: now(), param: 'confirmationCode' });
      const [updated] = await tx.update(customerEmails).set({ confirmed: true, lastModified: new Date(now()) }).where(eq(customerEmails.id, row.id)).returning();
      return { email: emailWire(updated!) };
    },

    async usernameChangeRequestCreate(input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const login = await callerLogin(ctx, caller);
      if (input.desiredUsername === login) throw new ValidationFailure([vf('desiredUsername', VfCode.usernameYours)]);
      if (await loginTaken(tx, input.desiredUsername, caller.userId)) throw new ValidationFailure([vf('desiredUsername', VfCode.usernameTaken)]);
      const open = await currentUsernameRequest(tx, caller.userId);
      if (open && open.status !== 'failed') throw new MethodFailure('TA1', 'A username change is in progress: cancel it first');
      const [r] = await tx
        .insert(usernameChangeRequests)
        .values({ customerId, userId: caller.userId, desiredUsername: input.desiredUsername, createdAt: new Date(now()), updatedAt: new Date(now()) })
        .returning();
      await logUsernameEvent(tx, r!.id, 'created', now());
      const code = await issueCode(tx, { customerId, purpose: 'username', targetId: r!.id, nowMs: now() });
      await enqueueMail(tx, {
        to: input.desiredUsername,
        subject: `${options.providerName}: confirm your new username`,
        text: `Your code to make this address your username is ${code}. It expires in ${PROFILE_CODE_TTL_S / 60} minutes.\n\nIf you did not ask for it, ignore this message.`,
      });
      await logUsernameEvent(tx, r!.id, 'codeSent', now());
      ctx.audit({ requestId: r!.id });
      return { usernameChangeRequest: await usernameRequestWire(tx, r!) };
    },

    async usernameChangeRequestDelete(input, ctx) {
      const { caller } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const [r] = await tx
        .select()
        .from(usernameChangeRequests)
        .where(and(eq(usernameChangeRequests.id, input.requestId), eq(usernameChangeRequests.userId, caller.userId)));
      if (!r || !['active', 'pending', 'failed'].includes(r.status)) throw new MethodFailure('ENOA', 'No such request');
      await tx.update(usernameChangeRequests).set({ status: 'canceled', updatedAt: new Date(now()) }).where(eq(usernameChangeRequests.id, r.id));
      await logUsernameEvent(tx, r.id, 'canceled', now());
      ctx.audit({ requestId: r.id });
      return {};
    },

    async usernameChangeRequestEmailConfirm(input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const [r] = await tx
        .select()
        .from(usernameChangeRequests)
        .where(and(eq(usernameChangeRequests.id, input.requestId), eq(usernameChangeRequests.userId, caller.userId)))
        .for('update');
      if (!r || !['active', 'pending', 'failed'].includes(r.status)) throw new MethodFailure('ENOA', 'No such request');
      if (r.status !== 'active') throw new MethodFailure('TA1', 'The request is not waiting for its code', [vf('requestId', VfCode.requestNotActive, { status: r.status })]);
      ctx.audit({ requestId: r.id });
      try {
        await useCode(tx, { purpose: 'username', targetId: r.id, code: input.code, nowMs: now(), param: 'code' });
      } catch (err) {
        // The wrong answer is logged with the request (the count commits with it).
        await logUsernameEvent(tx, r.id, 'wrongCode', now());
        throw err;
      }
      await logUsernameEvent(tx, r.id, 'emailConfirmed', now());
      // Changing the login needs a validated identity: at once when it is, else when an administrator confirms one.
      const inputs = await verificationInputs(tx, { userId: caller.userId, customerId, today: today() });
      const [updated] = await tx.update(usernameChangeRequests).set({ status: 'pending', updatedAt: new Date(now()) }).where(eq(usernameChangeRequests.id, r.id)).returning();
      if (inputs.identity === 'validated' || inputs.identity === 'expiredSoon' || (inputs.identity === 'notRequired' && inputs.verified)) {
        await completeUsernameChange(tx, updated!, now());
      }
      const current = await currentUsernameRequest(tx, caller.userId);
      return { usernameChangeRequest: current ? await usernameRequestWire(tx, current) : null, login: await callerLogin({ ...ctx, db: tx }, caller) };
    },

    async usernameChangeRequestIdentityJob(input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const r = await ownUsernameRequest(tx, caller.userId, input.requestId);
      if (r.status !== 'pending') {
        throw new MethodFailure('TA1', 'The request does not wait for an identity check', [vf('requestId', VfCode.requestNotActive, { status: r.status })]);
      }
      const provider = (identityProvider ??= options.identityProvider ?? identityProviderFromConfig(process.env.IDENTITY_VERIFICATION_PROVIDER));
      const workflowRunId = randomUUID();
      const token = randomToken();
      const { url } = await provider.start({ workflowRunId, token, kind: 'identity' });
      // A new job replaces the customer's earlier pending identity job (as the REST start does).
      await tx
        .update(identityJobs)
        .set({ status: 'expired' })
        .where(and(eq(identityJobs.customerId, customerId), eq(identityJobs.kind, 'identity'), eq(identityJobs.status, 'pending')));
      await tx.insert(identityJobs).values({
        workflowRunId,
        tokenHash: sha256Hex(token),
        customerId,
        kind: 'identity',
        provider: provider.name,
        channel: 'email',
        createdByUserId: caller.userId,
        createdAt: new Date(now()),
        expiresAt: new Date(now() + IDENTITY_JOB_TTL_S * 1000),
      });
      await logUsernameEvent(tx, r.id, 'identityJobStarted', now());
      ctx.audit({ requestId: r.id, workflowRunId, provider: provider.name });
      return { usernameChangeRequest: await usernameRequestWire(tx, r), workflowRunId, token, provider: provider.name, url };
    },

    async usernameChangeRequestCompleted(input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const r = await ownUsernameRequest(tx, caller.userId, input.requestId, true);
      const login = async () => callerLogin({ ...ctx, db: tx }, caller);
      if (r.status === 'completed') return { completed: true, usernameChangeRequest: null, login: await login() };
      if (r.status === 'failed') return { completed: false, usernameChangeRequest: await usernameRequestWire(tx, r), login: await login() };
      if (r.status === 'active') throw new MethodFailure('TA1', 'The request waits for the code sent to the new address', [vf('requestId', VfCode.requestNotActive, { status: 'active' })]);
      const inputs = await verificationInputs(tx, { userId: caller.userId, customerId, today: today() });
      if (!(inputs.identity === 'validated' || inputs.identity === 'expiredSoon' || (inputs.identity === 'notRequired' && inputs.verified))) {
        throw new MethodFailure('TA1', 'The identity is not validated yet', [vf('requestId', VfCode.waitsForIdentity, { identity: inputs.identity })]);
      }
      const done = await completeUsernameChange(tx, r, now());
      ctx.audit({ requestId: r.id, completed: done });
      const [after] = await tx.select().from(usernameChangeRequests).where(eq(usernameChangeRequests.id, r.id));
      return { completed: done, usernameChangeRequest: done ? null : await usernameRequestWire(tx, after!), login: await login() };
    },

    // ---- addresses ----
    async addressInquiry(_input, ctx) {
      const { customerId } = requireCaller(ctx);
      const rows = await ctx.db
        .select()
        .from(customerAddresses)
        .where(and(eq(customerAddresses.customerId, customerId), isNull(customerAddresses.deletedAt)))
        .orderBy(asc(customerAddresses.id));
      const docs = await customerDocumentRows(ctx.db, customerId);
      const addresses: Address[] = [];
      for (const row of rows) addresses.push(await addressWire(ctx.db, row, docs, ctx, today()));
      return { addresses };
    },

    async customerAddressCreateOrReplace(input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const customer = await customerOr(tx, customerId);
      const existing = input.addressId === undefined ? null : await ownAddress(tx, customerId, input.addressId);
      // Validate every document before writing anything.
      const errors: CodedValidationError[] = [];
      const createdUsername = await callerLogin(ctx, caller);
      const category = {
        mainDocument: customer.customerType === 'business' ? DocumentCategory.businessAddress : DocumentCategory.address,
        additionalDocument: customer.customerType === 'business' ? DocumentCategory.businessAddress : DocumentCategory.address,
        relationshipDocument: DocumentCategory.relationship,
      } as const;
      const prepared: { doc: NewDocument; prepared: PreparedDocument }[] = [];
      const knownFields = new Set<string>();
      for (const key of ['mainDocument', 'additionalDocument', 'relationshipDocument'] as const) {
        for (const f of [key, `${key}.back`, `${key}.registrationStamp`]) knownFields.add(f);
        const meta = input[key];
        if (!meta) {
          if (ctx.files.some((f) => f.fieldName.startsWith(key))) errors.push(vf(key, VfCode.requiredWithFile));
          continue;
        }
        const doc: NewDocument = {
          customerId,
          residenceCountryCode: input.countryCode,
          meta: { ...meta, categoryId: category[key] },
          addressId: null,
          createdUsername,
          createdByUserId: caller.userId,
          frontField: key,
          secondFieldPrefix: `${key}.`,
          paramPrefix: `${key}.`,
        };
        const p = await prepareDocument(tx, doc, ctx.files, today(), errors);
        if (p) prepared.push({ doc, prepared: p });
      }
      for (const f of ctx.files) if (!knownFields.has(f.fieldName)) errors.push(vf(f.fieldName, VfCode.unknownFileField));
      if (errors.length > 0) throw new ValidationFailure(errors);

      const values = {
        addressType: input.addressType,
        address1: input.address1,
        address2: input.address2,
        city: input.city,
        postalCode: input.postalCode,
        countryCode: input.countryCode,
        stateCode: input.stateCode ?? null,
        stateName: input.stateName ?? null,
        addressStatus: input.addressStatus,
        updatedAt: new Date(now()),
      };
      // The app warned first (addressReplacementCompatibility); a card its programme no longer covers ends here.
      const cardsCanceled =
        existing && options.cards
          ? await options.cards.addressReplaced(tx, { userId: caller.userId, customerId, ip: ctx.ip, publish: ctx.publish, audit: ctx.audit }, input.countryCode, existing.id)
          : [];
      let row: AddressRow;
      if (existing) {
        // A replaced address is a new place: its earlier proof no longer proves it.
        const moved = existing.address1 !== values.address1 || existing.city !== values.city || existing.postalCode !== values.postalCode || existing.countryCode !== values.countryCode;
        [row] = (await tx
          .update(customerAddresses)
          .set({ ...values, ...(moved ? { status: 'unconfirmed' as const, customerConfirmedAt: null } : {}) })
          .where(eq(customerAddresses.id, existing.id))
          .returning()) as [AddressRow];
      } else {
        // One current address (addressStatus 1): an earlier current one of the same type is replaced.
        await tx
          .update(customerAddresses)
          .set({ deletedAt: new Date(now()) })
          .where(and(eq(customerAddresses.customerId, customerId), eq(customerAddresses.addressType, input.addressType), isNull(customerAddresses.deletedAt)));
        [row] = (await tx
          .insert(customerAddresses)
          .values({ customerId, ...values, createdAt: new Date(now()) })
          .returning()) as [AddressRow];
      }
      const stored: number[] = [];
      for (const p of prepared) {
        const rows = await storeDocument(tx, { ...p.doc, addressId: row.id }, p.prepared, new Date(now()));
        stored.push(...rows.map((r) => r.id));
      }
      if (stored.length > 0) {
        [row] = (await tx.update(customerAddresses).set({ status: 'pending' }).where(eq(customerAddresses.id, row.id)).returning()) as [AddressRow];
      }
      const verified = await recomputeVerified(tx, customerId, today());
      ctx.audit({ addressId: row.id, replaced: existing !== null, documentIds: stored, customerVerified: verified, cardsCanceled });
      return { address: await addressWire(tx, row, await customerDocumentRows(tx, customerId), ctx, today()) };
    },

    async customerAddressDelete(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownAddress(tx, customerId, input.id);
      await tx.update(customerAddresses).set({ deletedAt: new Date(now()) }).where(eq(customerAddresses.id, row.id));
      ctx.audit({ addressId: row.id });
      return {};
    },

    async confirmAddress(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const row = await ownAddress(tx, customerId, input.addressId);
      const [updated] = await tx.update(customerAddresses).set({ customerConfirmedAt: new Date(now()) }).where(eq(customerAddresses.id, row.id)).returning();
      ctx.audit({ addressId: row.id });
      return { address: await addressWire(tx, updated!, await customerDocumentRows(tx, customerId), ctx, today()) };
    },

    // ---- tax number, KYC, limits, due diligence ----
    async customerTaxNumberUpdate(input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      // positionId: a representative updates for a company it holds that position in.
      if (input.positionId !== undefined) {
        const [row] = await tx
          .select({ positionIds: customerAccess.positionIds })
          .from(customerAccess)
          .where(and(eq(customerAccess.userId, caller.userId), eq(customerAccess.customerId, customerId)));
        if (!row || !row.positionIds.includes(input.positionId)) {
          throw new ValidationFailure([vf('positionId', VfCode.notYourPosition)]);
        }
      }
      // The number in the format of the customer's country (document 3 §9): a person's personal
      // number against the residence country, a company's business number against its country of
      // registration (stored as residenceCountryCode). A country without a format keeps the
      // contract's generic check.
      const customer = await customerOr(tx, customerId);
      const use = customer.customerType === 'business' ? 'business' : 'personal';
      const checked = checkTaxNumberField('taxId', customer.residenceCountryCode, use, input.taxId);
      if (!checked.ok) throw new ValidationFailure([checked.error]);
      await tx.update(customers).set({ taxId: checked.value }).where(eq(customers.id, customerId));
      ctx.audit({ taxIdUpdated: true, ...(input.positionId ? { positionId: input.positionId } : {}) });
      return {};
    },

    async kycInfoUpdate(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const values = {
        occupationId: input.occupationId,
        sourceOfFundsIds: input.sourceOfFundsIds,
        purposeIds: input.purposeIds,
        expectedMonthlyTurnover: input.expectedMonthlyTurnover,
        isPoliticallyExposed: input.isPoliticallyExposed,
        updatedAt: new Date(now()),
      };
      const [row] = await tx.insert(kycInfo).values({ customerId, ...values }).onConflictDoUpdate({ target: kycInfo.customerId, set: values }).returning();
      // Answering closes the open KYC request: the provider's KYC gate opens.
      await tx.update(kycRequests).set({ status: 'answered', answeredAt: new Date(now()) }).where(and(eq(kycRequests.customerId, customerId), eq(kycRequests.status, 'open')));
      await tx.update(customers).set({ isNeedKyc: false }).where(eq(customers.id, customerId));
      ctx.audit({ kycUpdated: true });
      return { kycInfo: { ...values, updatedAt: row!.updatedAt.toISOString() } };
    },

    async kycCustomerInfoGet(_input, ctx) {
      const { customerId } = requireCaller(ctx);
      const customer = await customerOr(ctx.db, customerId);
      const [row] = await ctx.db.select().from(kycInfo).where(eq(kycInfo.customerId, customerId));
      return {
        kycInfo: row
          ? {
              occupationId: row.occupationId,
              sourceOfFundsIds: row.sourceOfFundsIds,
              purposeIds: row.purposeIds,
              expectedMonthlyTurnover: row.expectedMonthlyTurnover,
              isPoliticallyExposed: row.isPoliticallyExposed,
              updatedAt: row.updatedAt.toISOString(),
            }
          : { occupationId: null, sourceOfFundsIds: [], purposeIds: [], expectedMonthlyTurnover: null, isPoliticallyExposed: null, updatedAt: null },
        isNeedKyc: customer.isNeedKyc,
      };
    },

    async kycRequestGet(_input, ctx) {
      const { customerId } = requireCaller(ctx);
      const [r] = await ctx.db.select().from(kycRequests).where(eq(kycRequests.customerId, customerId)).orderBy(desc(kycRequests.createdAt), desc(kycRequests.id)).limit(1);
      return { kycRequest: r ? { id: r.id, status: r.status, reason: r.reason, created: r.createdAt.toISOString() } : null };
    },

    async kycCustomerPersonalInfoUpdate(input, ctx) {
      const { customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const customer = await customerOr(tx, customerId);
      if (customer.customerType !== 'personal') throw new MethodFailure('TA1', 'Personal info belongs to a personal customer');
      if (input.birthDay > today()) throw new ValidationFailure([vf('birthDay', VfCode.notInFuture)]);
      // Changing a verified person's name is an identity change: the documents must show the new one.
      await tx
        .update(customers)
        .set({ firstName: input.firstName, lastName: input.lastName, birthDay: input.birthDay, residenceCountryCode: input.residenceCountryCode, isNeedPersonalInfoUpdate: false })
        .where(eq(customers.id, customerId));
      ctx.audit({ personalInfoUpdated: true, nameChanged: customer.firstName !== input.firstName || customer.lastName !== input.lastName });
      return {};
    },

    async customerLimitReasonGet(_input, ctx) {
      const { customerId } = requireCaller(ctx);
      const customer = await customerOr(ctx.db, customerId);
      const reasons = await ctx.db.select().from(limitReasons).where(and(eq(limitReasons.customerId, customerId), isNull(limitReasons.liftedAt))).orderBy(asc(limitReasons.id));
      const docs = await customerDocumentRows(ctx.db, customerId);
      const wire = await documentsToWire(ctx.db, docs, ctx.lang);
      return {
        limited: customer.limited,
        reasons: reasons.map((r) => ({
          actionTypeId: r.actionTypeId,
          reason: r.reason,
          requirementDocuments: r.requiredDocumentTypeIds.map((typeId) => ({
            documentTypeId: typeId,
            uploadedDocuments: wire.filter((w, i) => !w.isSubDocument && w.documentTypeId === typeId && docs[i]!.uploaded >= r.createdAt),
          })),
        })),
      };
    },

    async dueDiligenceInfoGet(_input, ctx) {
      const { customerId } = requireCaller(ctx);
      const customer = await customerOr(ctx.db, customerId);
      const [dd] = await ctx.db.select().from(dueDiligenceInfo).where(eq(dueDiligenceInfo.customerId, customerId));
      const docs = await customerDocumentRows(ctx.db, customerId);
      const facts = (pick: (d: DocumentRow) => boolean) =>
        docs.filter((d) => d.parentId === null && pick(d)).map((d) => ({ statusId: d.statusId, uploaded: d.uploaded.toISOString(), expiresDate: d.expiresDate }));
      const requiredTypes = dd?.requiredDocumentTypeIds ?? [];
      const residenceCategory = customer.customerType === 'business' ? DocumentCategory.businessAddress : DocumentCategory.address;
      return {
        dueDiligenceInfo: {
          dueDiligenceLevel: customer.dueDiligenceLevel,
          address: { required: dd?.addressDocumentRequired ?? false, status: documentState(facts((d) => d.categoryId === residenceCategory), today(), dd?.addressDocumentRequired ?? false) },
          document: { requiredDocumentTypeIds: requiredTypes, status: documentState(facts((d) => requiredTypes.includes(d.documentTypeId)), today(), requiredTypes.length > 0) },
          uploadedDocuments: await documentsToWire(
            ctx.db,
            docs.filter((d) => requiredTypes.includes(d.documentTypeId) || d.categoryId === DocumentCategory.sourceOfWealth),
            ctx.lang,
          ),
          financialInfo: {
            annualIncome: dd?.annualIncome ?? null,
            netWorth: dd?.netWorth ?? null,
            sourceOfWealth: dd?.sourceOfWealth ?? null,
            employerName: dd?.employerName ?? null,
          },
        },
      };
    },

    async userStatusGet(_input, ctx) {
      const { caller, customerId } = requireCaller(ctx);
      const { isNeedKyc, isNeedPersonalInfoUpdate, dueDiligenceLevel, ...userStatus } = await verificationInputs(ctx.db, { userId: caller.userId, customerId, today: today(), nowMs: now() });
      return { userStatus, isNeedKyc, isNeedPersonalInfoUpdate, dueDiligenceLevel };
    },

    // ---- the administrator's account actions ----
    async adminCustomerLimit(input, ctx) {
      const tx = ctx.db as Tx;
      await customerOr(tx, input.customerId, 'TA1');
      await tx.insert(limitReasons).values({
        customerId: input.customerId,
        actionTypeId: LimitActionType[input.reason],
        reason: input.reason,
        requiredDocumentTypeIds: input.requiredDocumentTypeIds,
        note: input.note ?? null,
        createdByUserId: ctx.caller!.userId,
        createdAt: new Date(now()),
      });
      await tx.update(customers).set({ limited: true }).where(eq(customers.id, input.customerId));
      ctx.audit({ customerId: input.customerId, reason: input.reason, requiredDocumentTypeIds: input.requiredDocumentTypeIds, ...(input.note ? { note: input.note } : {}) });
      return { limited: true };
    },

    async adminCustomerUnlimit(input, ctx) {
      const tx = ctx.db as Tx;
      const customer = await customerOr(tx, input.customerId, 'TA1');
      if (!customer.limited) throw new MethodFailure('TA1', 'The account is not limited', [vf('customerId', VfCode.notLimited)]);
      const lifted = await tx
        .update(limitReasons)
        .set({ liftedAt: new Date(now()) })
        .where(and(eq(limitReasons.customerId, input.customerId), isNull(limitReasons.liftedAt)))
        .returning({ id: limitReasons.id });
      await tx.update(customers).set({ limited: false }).where(eq(customers.id, input.customerId));
      const verified = await recomputeVerified(tx, input.customerId, today());
      ctx.audit({ customerId: input.customerId, liftedReasonIds: lifted.map((l) => l.id), customerVerified: verified, ...(input.note ? { note: input.note } : {}) });
      return { limited: false };
    },

    async financialDetailUpdate(input, ctx) {
      const tx = ctx.db as Tx;
      await customerOr(tx, input.customerId, 'TA1');
      const values = {
        ...(input.annualIncome !== undefined ? { annualIncome: input.annualIncome } : {}),
        ...(input.netWorth !== undefined ? { netWorth: input.netWorth } : {}),
        ...(input.sourceOfWealth !== undefined ? { sourceOfWealth: input.sourceOfWealth } : {}),
        ...(input.employerName !== undefined ? { employerName: input.employerName } : {}),
        updatedByUserId: ctx.caller!.userId,
        updatedAt: new Date(now()),
      };
      await tx.insert(dueDiligenceInfo).values({ customerId: input.customerId, ...values }).onConflictDoUpdate({ target: dueDiligenceInfo.customerId, set: values });
      // The audit names the fields changed, not the amounts (financial data stays in its table).
      ctx.audit({ customerId: input.customerId, fields: Object.keys(values).filter((k) => k !== 'updatedByUserId' && k !== 'updatedAt') });
      return {};
    },

    async dueDiligenceUpdate(input, ctx) {
      const tx = ctx.db as Tx;
      const customer = await customerOr(tx, input.customerId, 'TA1');
      const values = {
        ...(input.addressDocumentRequired !== undefined ? { addressDocumentRequired: input.addressDocumentRequired } : {}),
        ...(input.requiredDocumentTypeIds !== undefined ? { requiredDocumentTypeIds: input.requiredDocumentTypeIds } : {}),
        updatedByUserId: ctx.caller!.userId,
        updatedAt: new Date(now()),
      };
      await tx.insert(dueDiligenceInfo).values({ customerId: input.customerId, ...values }).onConflictDoUpdate({ target: dueDiligenceInfo.customerId, set: values });
      await tx.update(customers).set({ dueDiligenceLevel: input.dueDiligenceLevel }).where(eq(customers.id, input.customerId));
      ctx.audit({
        customerId: input.customerId,
        fromLevel: customer.dueDiligenceLevel,
        toLevel: input.dueDiligenceLevel,
        ...(input.addressDocumentRequired !== undefined ? { addressDocumentRequired: input.addressDocumentRequired } : {}),
        ...(input.requiredDocumentTypeIds !== undefined ? { requiredDocumentTypeIds: input.requiredDocumentTypeIds } : {}),
      });
      return {};
    },
  };
}

/** The handlers on the real clock with the variant's name (app.ts replaces them with its own clock). */
export const profileHandlers = createProfileHandlers({ now: Date.now, providerName: activeVariant.projectName });
