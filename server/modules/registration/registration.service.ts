/**
 * Registration and activation rules (document 1 §1, §4, §5, §7; document 3 §2).
 *
 * - A personal account is created not activated, with an activation code e-mailed through the
 *   outbox in the same transaction.
 * - A code is stored only as its sha256 (it is random, 40 bits, and dies after
 *   ACTIVATION_MAX_ATTEMPTS wrong tries and ACTIVATION_CODE_TTL_S): a database leak gives no code.
 * - Wrong codes are counted outside any transaction (the failed call rolls nothing back that
 *   matters); the change itself runs in one transaction with its audit entry.
 * - Unknown e-mails get the same answers as known ones where a difference would reveal accounts
 *   (activation with a wrong code, resend). checkEmail reveals existence by design of the spec
 *   (document 1 §4), so it is capped per client address.
 */
import { newCustomerMoneyPermissions } from '../transfers/permissions.ts';
import { randomInt, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  ACTIVATION_CODE_ALPHABET,
  ACTIVATION_CODE_LENGTH,
  ACTIVATION_CODE_TTL_S,
  ACTIVATION_MAX_ATTEMPTS,
  ACTIVATION_RESENDS_PER_HOUR,
  CHECK_EMAIL_PER_MINUTE,
  EmailState,
  activationLink,
  type ActivationAction,
  type PersonalType,
} from '../../../api/registration.ts';
import { ResponseCode } from '../../../api/envelope.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import type { Db, Tx } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { oneTimeCodes } from '../auth/auth.tables.ts';
import { hashPassword, sha256Hex, timingSafeEqualText } from '../auth/crypto.ts';
import { customerAccess, customers, phones, termsAcceptances, users } from '../customers/customers.tables.ts';
import { currentTerms } from '../customers/terms.service.ts';
import { countryExists } from '../dictionaries/dictionaries.service.ts';
import { MethodFailure, vfFailure as vf } from '../method-types.ts';
import { VfCode } from '../../../api/errors.ts';
import { auditLog } from '../platform/platform.tables.ts';
import type { BusinessRegistration } from '../../../api/business-registration.ts';
import { checkBusinessRegistration, storeBusiness, type StoredBusiness } from './business-registration.service.ts';
import { deleteDraftsOf } from './business-drafts.ts';
import { sendRepresentativeLinks } from '../business/representative-link.ts';

export type ActivationPurpose = 'activation' | 'businessActivation' | 'employeeActivation';

const ACTION_OF: Record<ActivationPurpose, ActivationAction> = {
  activation: 'activation',
  businessActivation: 'activationBusiness',
  employeeActivation: 'activationEmployee',
};

/** Authorised users one business activation e-mails at most (a limit on everything). */
export const MAX_EMPLOYEE_LINKS = 200;
/** Client addresses the checkEmail limiter remembers; the oldest is forgotten beyond it. */
const MAX_TRACKED_ADDRESSES = 10_000;
const HOUR_MS = 60 * 60 * 1000;
/** The account a new personal customer gets: a EUR payment account (type 1001) at zero. */
const OPENING_ACCOUNT = { type: 1001, currency: 'EUR' } as const;

export const RegistrationMessages = {
  closed: 'Registration is closed',
  tooMany: 'Too many requests',
} as const;

export interface RegistrationOptions {
  now: () => number;
  /** false: every registration call answers 13 (document 1 §1) */
  allowRegistration: boolean;
  /** the variant's personal types (variants/schema.ts) */
  personalTypes: readonly PersonalType[];
  /** the web app's origin, for the links in e-mails (never the request's Host: it can be forged) */
  publicUrl: string;
  projectName: string;
  checkEmailPerMinute?: number;
  /** business registrations per client address per minute (each hashes a password and writes a company) */
  businessRegistrationsPerMinute?: number;
  /** the variant's source-of-wealth switch: a business's ultimate beneficial owners give source-of-funds details (on when omitted) */
  sourceOfWealth?: boolean;
  /** the variant hides the adult industry group (business registration refuses its industries) */
  hideAdultIndustries?: boolean;
}

/** Business registrations a client address may send per minute (personal ones share the global limit only). */
export const BUSINESS_REGISTRATIONS_PER_MINUTE = 10;

export interface NewPersonalAccount {
  personalType: PersonalType;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  residenceCountryCode: string;
  phoneCountryCode?: string | undefined;
  phone?: string | undefined;
}


/** ACTIVATION_CODE_LENGTH characters of the alphabet, uniformly (crypto random). */
export function newActivationCode(): string {
  let out = '';
  for (let i = 0; i < ACTIVATION_CODE_LENGTH; i++) out += ACTIVATION_CODE_ALPHABET[randomInt(0, ACTIVATION_CODE_ALPHABET.length)];
  return out;
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** A sliding one-minute window per client address, per instance (like the global request limit). */
export function createAddressLimiter(perMinute: number, now: () => number) {
  const hits = new Map<string, number[]>();
  return {
    /** true when the address may make one more call now (and counts it) */
    take(address: string): boolean {
      const t = now();
      const recent = (hits.get(address) ?? []).filter((at) => at > t - 60_000);
      if (recent.length >= perMinute) {
        hits.set(address, recent);
        return false;
      }
      recent.push(t);
      hits.delete(address);
      hits.set(address, recent);
      if (hits.size > MAX_TRACKED_ADDRESSES) {
        const oldest = hits.keys().next().value;
        if (oldest !== undefined) hits.delete(oldest);
      }
      return true;
    },
  };
}

export function createRegistrationService(options: RegistrationOptions) {
  const { now, publicUrl, projectName } = options;
  const limiter = createAddressLimiter(options.checkEmailPerMinute ?? CHECK_EMAIL_PER_MINUTE, now);
  const businessLimiter = createAddressLimiter(options.businessRegistrationsPerMinute ?? BUSINESS_REGISTRATIONS_PER_MINUTE, now);
  const sourceOfWealth = options.sourceOfWealth ?? true;
  const at = (ms: number) => new Date(ms);

  /** Issues a code for the user and queues the e-mail with it, in the caller's transaction. */
  async function issueCode(tx: Tx | Db, user: { id: number; email: string }, purpose: ActivationPurpose, resend: boolean): Promise<void> {
    const code = newActivationCode();
    await tx.insert(oneTimeCodes).values({
      id: randomUUID(),
      userId: user.id,
      purpose,
      codeHash: sha256Hex(code),
      sentTo: user.email,
      payload: resend ? { resend: true } : {},
      createdAt: at(now()),
      expiresAt: at(now() + ACTIVATION_CODE_TTL_S * 1000),
    });
    const link = activationLink(publicUrl, ACTION_OF[purpose], user.email, code);
    const what =
      purpose === 'employeeActivation'
        ? 'You were added as an authorised user of a company. To activate your user and choose a password'
        : 'To activate your account';
    await enqueueMail(tx, {
      to: user.email,
      subject: `${projectName}: your activation code`,
      text: `${what}, open this link:\n\n${link}\n\nor enter this code on the activation page: ${code}\n\nThe code is valid for 24 hours. If you did not ask for it, ignore this message.\n`,
    });
  }

  async function emailState(db: Db, email: string) {
    const [user] = await db.select({ userType: users.userType }).from(users).where(eq(users.email, email)).limit(1);
    if (!user) return EmailState.free;
    return user.userType === 3 ? EmailState.employee : EmailState.exists;
  }

  return {
    /**
     * An authorised user invited to an active company (api/business.ts representativeAdd): their
     * activation link (activationEmployee) e-mailed now, in the caller's transaction.
     */
    async sendEmployeeActivation(tx: Tx | Db, user: { id: number; email: string }): Promise<void> {
      await issueCode(tx, user, 'employeeActivation', false);
    },

    /** Document 1 §4: 0 free, 1 exists, 3 exists as an authorised user. */
    async checkEmail(db: Db, email: string, address: string) {
      if (!options.allowRegistration) throw new MethodFailure(ResponseCode.accessDenied, RegistrationMessages.closed);
      if (!limiter.take(address)) throw new MethodFailure(ResponseCode.unknown, RegistrationMessages.tooMany);
      return emailState(db, email);
    },

    /** A personal customer, its user (not activated), phone, accepted terms, EUR account and code. */
    async createPersonalAccount(tx: Db, input: NewPersonalAccount): Promise<{ userId: number; customerId: number }> {
      if (!options.allowRegistration) throw new MethodFailure(ResponseCode.accessDenied, RegistrationMessages.closed);
      if (!options.personalTypes.includes(input.personalType)) throw vf('personalType', VfCode.notOffered);
      if ((input.phone === undefined) !== (input.phoneCountryCode === undefined)) {
        throw vf(input.phone === undefined ? 'phone' : 'phoneCountryCode', VfCode.requiredWithPhone);
      }
      if (!(await countryExists(tx, input.residenceCountryCode))) throw vf('residenceCountryCode', VfCode.notCountry);
      if ((await emailState(tx, input.email)) !== EmailState.free) throw vf('email', VfCode.alreadyRegistered);

      const passwordHash = await hashPassword(input.password);
      const [customer] = await tx
        .insert(customers)
        .values({ customerType: 'personal', firstName: input.firstName, lastName: input.lastName, residenceCountryCode: input.residenceCountryCode })
        .returning({ id: customers.id });
      if (!customer) throw new Error('registration: no customer row');
      let user: { id: number; email: string } | undefined;
      try {
        [user] = await tx
          .insert(users)
          .values({ email: input.email, passwordHash, login2faMode: 'no', userType: 1, customerId: customer.id, activated: false, moneyPermissions: newCustomerMoneyPermissions() })
          .returning({ id: users.id, email: users.email });
      } catch (err) {
        // Two registrations of one address at once: the unique index decides.
        if (isUniqueViolation(err)) throw vf('email', VfCode.alreadyRegistered);
        throw err;
      }
      if (!user) throw new Error('registration: no user row');
      if (input.phone !== undefined && input.phoneCountryCode !== undefined) {
        await tx.insert(phones).values({ customerId: customer.id, phoneCountryCode: input.phoneCountryCode, phone: input.phone, status: 'primary', confirmed: false });
      }
      const required = (await currentTerms(tx)).filter((term) => term.required);
      if (required.length > 0) {
        await tx.insert(termsAcceptances).values(required.map((term) => ({ customerId: customer.id, termId: term.id, version: term.version, userId: user.id, acceptedAt: at(now()) })));
      }
      await tx.insert(accounts).values({ ...OPENING_ACCOUNT, customerId: customer.id });
      await issueCode(tx, user, 'activation', false);
      return { userId: user.id, customerId: customer.id };
    },

    /**
     * A business registration (business-registration.service.ts): registration open, the caller's
     * address under its limit, every check (one VF answer with every refusal), then the company, its
     * people and users in the caller's transaction; the owner's activation code (activationBusiness)
     * e-mailed; the drafts kept for the registrant's and the company's e-mail deleted.
     * `loginEmail`: accountCreate's own `email`, when given, must be the registrant's.
     */
    async createBusinessAccount(tx: Db, reg: BusinessRegistration, password: string, loginEmail: string | undefined, address: string): Promise<StoredBusiness> {
      if (!options.allowRegistration) throw new MethodFailure(ResponseCode.accessDenied, RegistrationMessages.closed);
      if (!businessLimiter.take(address)) throw new MethodFailure(ResponseCode.unknown, RegistrationMessages.tooMany);
      const checked = await checkBusinessRegistration(tx, reg, { sourceOfWealth, hideAdultIndustries: options.hideAdultIndustries ?? false, now });
      const ownerEmail = checked.registrant.email!;
      if (loginEmail !== undefined && loginEmail !== ownerEmail) throw vf('email', VfCode.notAllowed);
      let stored: StoredBusiness;
      try {
        stored = await storeBusiness(tx, checked, password, { now, sourceOfWealth });
      } catch (err) {
        // Two registrations of one address at once: the unique index decides.
        if (isUniqueViolation(err)) throw vf(`personList.${reg.personList.indexOf(checked.registrant)}.email`, VfCode.alreadyRegistered);
        throw err;
      }
      await issueCode(tx, { id: stored.ownerUserId, email: ownerEmail }, 'businessActivation', false);
      await deleteDraftsOf(tx, [ownerEmail, reg.company.email]);
      return stored;
    },

    /**
     * Checks the code and, when right, activates the user in one transaction with its audit entry
     * (and, for a business owner, e-mails activation links to the company's authorised users).
     */
    async activate(db: Db, purpose: ActivationPurpose, email: string, code: string, newPassword?: string): Promise<void> {
      const wrong = () => vf('activationCode', VfCode.codeWrong);
      const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      if (!user || user.disabled) throw wrong();
      const codeHash = sha256Hex(code);
      const [row] = await db
        .select()
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt)))
        .orderBy(desc(oneTimeCodes.createdAt))
        .limit(1);
      if (!row || user.activated) {
        // A second click on the same link: say so, instead of "not correct".
        const [used] = await db
          .select({ id: oneTimeCodes.id })
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, purpose), eq(oneTimeCodes.codeHash, codeHash)))
          .limit(1);
        throw used ? vf('activationCode', VfCode.codeUsed) : wrong();
      }
      if (row.failedAttempts >= ACTIVATION_MAX_ATTEMPTS || row.expiresAt.getTime() <= now()) {
        throw vf('activationCode', VfCode.codeExpired);
      }
      if (!timingSafeEqualText(row.codeHash, codeHash)) {
        // Counted in one statement, outside any transaction, so a burst of guesses counts each one.
        await db
          .update(oneTimeCodes)
          .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
          .where(eq(oneTimeCodes.id, row.id));
        throw wrong();
      }
      const passwordHash = newPassword === undefined ? undefined : await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        const spent = await tx
          .update(oneTimeCodes)
          .set({ usedAt: at(now()) })
          .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.usedAt), sql`${oneTimeCodes.failedAttempts} < ${ACTIVATION_MAX_ATTEMPTS}`))
          .returning({ id: oneTimeCodes.id });
        // Another request used (or killed) it between the check and now.
        if (spent.length !== 1) throw wrong();
        await tx
          .update(users)
          .set(passwordHash === undefined ? { activated: true } : { activated: true, passwordHash })
          .where(eq(users.id, user.id));
        let employeesLinked = 0;
        let representativesLinked = 0;
        if (purpose === 'businessActivation') {
          employeesLinked = await sendEmployeeLinks(tx, user.customerId);
          // The structure's persons who are not users get their own link (api/business-declarations.ts).
          const [company] = await tx.select({ name: customers.businessName }).from(customers).where(eq(customers.id, user.customerId));
          representativesLinked = await sendRepresentativeLinks(tx, user.customerId, { companyName: company?.name ?? '', nowMs: now(), publicUrl, projectName });
        }
        await tx.insert(auditLog).values({
          userId: user.id,
          customerId: user.customerId,
          method: purpose === 'activation' ? 'activateAccount' : purpose === 'businessActivation' ? 'businessAccountActivate' : 'employeeAccountActivate',
          details: { activated: true, ...(purpose === 'businessActivation' ? { employeesLinked, representativesLinked } : {}), ...(passwordHash ? { passwordSet: true } : {}) },
        });
      });
    },

    /**
     * A new code for a user waiting for activation; older codes die. Nothing happens (and the
     * answer is the same) for unknown or active users, or past ACTIVATION_RESENDS_PER_HOUR: no
     * row is written then. A resend is one transaction with its audit entry.
     */
    async resend(db: Db, email: string): Promise<{ userId: number } | null> {
      const [found] = await db.select({ id: users.id, activated: users.activated, disabled: users.disabled }).from(users).where(eq(users.email, email)).limit(1);
      if (!found || found.activated || found.disabled) return null;
      return db.transaction(async (tx) => {
        // Read again under a lock: two resends at once count each other against the hourly cap.
        const [user] = await tx.select().from(users).where(eq(users.id, found.id)).for('update');
        if (!user || user.activated || user.disabled) return null;
        const purpose: ActivationPurpose = user.userType === 2 ? 'businessActivation' : user.userType === 3 ? 'employeeActivation' : 'activation';
        const [recent] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(oneTimeCodes)
          .where(
            and(
              eq(oneTimeCodes.userId, user.id),
              eq(oneTimeCodes.purpose, purpose),
              gt(oneTimeCodes.createdAt, at(now() - HOUR_MS)),
              sql`${oneTimeCodes.payload} @> '{"resend":true}'::jsonb`,
            ),
          );
        if ((recent?.n ?? 0) >= ACTIVATION_RESENDS_PER_HOUR) return null;
        // An authorised user gets links only once the company is activated (by its owner).
        if (purpose === 'employeeActivation') {
          const [any] = await tx.select({ id: oneTimeCodes.id }).from(oneTimeCodes).where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, purpose))).limit(1);
          if (!any) return null;
        }
        await tx
          .update(oneTimeCodes)
          .set({ expiresAt: at(now()) })
          .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, at(now()))));
        await issueCode(tx, user, purpose, true);
        await tx.insert(auditLog).values({ userId: user.id, customerId: user.customerId, method: 'activationCodeResend', details: { resent: true } });
        return { userId: user.id };
      });
    },
  };

  /** Document 3 §2: after the owner activates, the company's authorised users get their links. */
  async function sendEmployeeLinks(tx: Tx, companyId: number): Promise<number> {
    const waiting = await tx
      .select({ id: users.id, email: users.email })
      .from(customerAccess)
      .innerJoin(users, eq(users.id, customerAccess.userId))
      .where(and(eq(customerAccess.customerId, companyId), eq(users.activated, false), eq(users.disabled, false), inArray(users.userType, [3])))
      .orderBy(users.id)
      .limit(MAX_EMPLOYEE_LINKS);
    for (const employee of waiting) await issueCode(tx, employee, 'employeeActivation', false);
    return waiting.length;
  }
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
