/**
 * The rules of the transfer form (document 2 §5), per transfer kind. The transfer machine is the
 * same for every kind; what differs is data here: which fields a kind has, which permission flags
 * it needs, when its fee, limits and payee lookups may be asked, and the request it sends.
 * A later kind (external, mass, global, invoices) adds an entry to TRANSFER_KINDS and a branch to
 * transferRequest. Pure: no I/O, no strings for people (codes only).
 */
import { ACCOUNT_STATUS_CLOSED, type Account } from '../../api/accounts.ts';
import type { ValidationError } from '../../api/envelope.ts';
import { checkPayeeValues, type ReceivedPayeeField } from '../../api/payees/methods.ts';
import { isPayoutMethod, type PayoutMethod } from '../../api/payees/payout-methods.ts';
import { PAYOUT_CALL_OF, type PAYOUT_CALLS, type wireTransfer } from '../../api/payouts.ts';
import {
  CRYPTO_CURRENCIES,
  type CurrencyCode,
  type LimitOperation,
  type MoneyPermissions,
  type PermissionFlag,
  type RecentTransfer,
  type TransferOperation,
  type transferBetweenAccounts,
  type transferP2p,
} from '../../api/transfers.ts';
import type { RequestOf } from '../../api/method.ts';

/**
 * Inside the platform (betweenAccounts, p2p), or out of it (external: to a bank, card, crypto
 * address, instant key or Interac contact, over the method the customer picks for the country).
 */
export type TransferKind = TransferOperation | 'external';

/** A field of the payee form as extraParams answers it. */
export type PayeeFormField = ReceivedPayeeField;
/** The payee form of a method for a country and currency (extraParams), and the card BINs refused (oct). */
export interface PayeeForm {
  fields: readonly PayeeFormField[];
  oneOf: readonly (readonly string[])[];
  blockedBins: readonly string[];
}

export interface TransferKindRules {
  /** the flags of document 2 §6 the platform requires (server/modules/transfers/permissions.ts) */
  permissions: readonly PermissionFlag[];
  /** recent transfers offered to pick from (document 2 §9: 3 for p2p); 0 for none */
  recentLimit: number;
  /** a destination among the customer's own accounts */
  toAccount: boolean;
  /** a payee by e-mail, checked as it is typed */
  payee: boolean;
  /** the amount may be given in the destination's currency */
  currencyChoice: boolean;
  /** note and reference */
  details: boolean;
  /** saved as a template under a name */
  template: boolean;
  /** a country, a payout method offered there and the method's payee form (transferMethods, extraParams) */
  route: boolean;
  /** may be repeated (a recurring schedule) */
  recurring: boolean;
}

export const TRANSFER_KINDS: Record<TransferKind, TransferKindRules> = {
  betweenAccounts: {
    permissions: ['own.betweenAccounts'],
    recentLimit: 0,
    toAccount: true,
    payee: false,
    currencyChoice: true,
    details: false,
    template: false,
    route: false,
    recurring: true,
  },
  p2p: {
    permissions: ['topLevel.sendMoneyUser', 'others.p2p'],
    recentLimit: 3,
    toAccount: false,
    payee: true,
    currencyChoice: false,
    details: true,
    template: true,
    route: false,
    recurring: true,
  },
  // The page needs one method's flag at least (hasPermission); the platform checks the chosen
  // method's own flag (wire, eft, card, digital, instant, interac: server/modules/transfers/
  // permissions.ts). A payout is not repeated (the platform refuses a schedule on a rail) and goes
  // in the source account's currency.
  external: {
    permissions: [],
    // the recent payouts, one a destination, to send again (not in the spec's §9: as p2p's)
    recentLimit: 3,
    toAccount: false,
    payee: false,
    currencyChoice: false,
    details: true,
    template: false,
    route: true,
    recurring: false,
  },
};

/** The "to others" flag of each payout method (document 2 §6). */
export const PAYOUT_METHOD_FLAGS: Record<PayoutMethod, PermissionFlag> = {
  wire: 'others.wire',
  eft: 'others.eft',
  oct: 'others.card',
  digital: 'others.digital',
  instant: 'others.instant',
  interac: 'others.interac',
};

export type Frequency = 'daily' | 'weekly' | 'monthly';
export interface RecurringForm {
  frequency: Frequency;
  /** the schedule ends on a date, or after a number of transfers */
  end: 'date' | 'count';
  endDate: string;
  transactions: string;
  /** the customer may cancel it later */
  userCancel: boolean;
}

export interface TransferForm {
  fromAccountId: number | null;
  toAccountId: number | null;
  /** as typed (a comma is read as the decimal point) */
  amount: string;
  /** the currency the amount is in; null: the source account's */
  currency: string | null;
  payeeEmail: string;
  note: string;
  reference: string;
  templateName: string;
  recurring: RecurringForm | null;
  /** external: the payee's country (ISO 3166 alpha-2), '' until chosen */
  countryCode: string;
  /** external: the payout method chosen among those offered for the country and currency */
  method: PayoutMethod | null;
  /** external: the payee form's values by field name (only the current form's fields are sent) */
  payeeFields: Readonly<Record<string, string>>;
}
export type TransferFormPatch = Partial<TransferForm>;

export const emptyForm = (): TransferForm => ({
  fromAccountId: null,
  toAccountId: null,
  amount: '',
  currency: null,
  payeeEmail: '',
  note: '',
  reference: '',
  templateName: '',
  recurring: null,
  countryCode: '',
  method: null,
  payeeFields: {},
});

export const defaultRecurring = (): RecurringForm => ({ frequency: 'monthly', end: 'count', endDate: '', transactions: '12', userCancel: true });

export type TransferField =
  | 'fromAccountId'
  | 'toAccountId'
  | 'amount'
  | 'currency'
  | 'payeeEmail'
  | 'note'
  | 'reference'
  | 'templateName'
  | 'recurringFrequency'
  | 'recurringEndDate'
  | 'recurringTransactions'
  | 'countryCode'
  | 'method'
  /** a field of the payee form, by its name */
  | `payee.${string}`;

export type FieldErrorCode =
  | 'required'
  | 'sameAccount'
  | 'amountFormat'
  | 'amountDecimals'
  | 'belowMin'
  | 'aboveMax'
  | 'overDailyLimit'
  /** more than the source account's available balance (with the fee, once it is known) */
  | 'aboveBalance'
  | 'email'
  /** the payee is the user: money between one's own accounts goes through the between-accounts page */
  | 'ownEmail'
  | 'payeeNotFound'
  | 'payeeCannotReceive'
  | 'payeeRefuses'
  | 'tooLong'
  | 'endDateFormat'
  | 'transactionsRange'
  /** external: no payout method reaches the country in the source's currency */
  | 'noMethod'
  /** external: the method's payee form is not loaded yet (or could not be) */
  | 'formNotLoaded'
  /** a payee form's field: its VF code is in `error` (the same checks as the platform's, api/payees/) */
  | 'payee'
  /** the platform's VF: the view words its code (src/lib/validation-messages.ts) */
  | 'server';
export interface FieldError {
  code: FieldErrorCode;
  /** the platform's error, with its code and parameters (code 'server') */
  error?: ValidationError;
  /** aboveBalance: the available balance the amount (and its fee) must fit in, in its currency */
  available?: { amount: string; currency: string };
}
export type FieldErrors = Partial<Record<TransferField, FieldError>>;

export interface PayeeCheck {
  email: string;
  exist: boolean;
  exists: boolean;
  isEmployee: boolean;
  outBlacklist: boolean;
  name: string | null;
}

export interface Limits {
  currencyCode: string;
  minAmount: string;
  maxAmount: string;
  dailyLimit: string;
  dailyRemaining: string;
}

/* ----------------------------------------------------------------------------- amounts */

const AMOUNT = /^\d{1,15}(\.\d{1,8})?$/;
const SCALE = 8;

/** '1 234,5' -> '1234.5': spaces dropped, a comma read as the decimal point. */
export function normaliseAmount(text: string): string {
  return text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
}

export function isAmountText(text: string): boolean {
  return AMOUNT.test(normaliseAmount(text));
}

/** Decimals a currency allows: 8 for crypto, 2 for fiat. */
export function currencyDecimals(currency: string): number {
  return (CRYPTO_CURRENCIES as readonly string[]).includes(currency) ? 8 : 2;
}

/** A decimal string as an integer of 10^-8 units, exact. */
export function toScaled(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
  const value = BigInt(whole || '0') * 10n ** BigInt(SCALE) + BigInt((fraction + '0'.repeat(SCALE)).slice(0, SCALE) || '0');
  return negative ? -value : value;
}

export function compareDecimal(a: string, b: string): number {
  const d = toScaled(a) - toScaled(b);
  return d === 0n ? 0 : d > 0n ? 1 : -1;
}

/** A well-formed amount above zero. */
export function isPositiveAmount(text: string): boolean {
  return isAmountText(text) && toScaled(normaliseAmount(text)) > 0n;
}

/* ----------------------------------------------------------------------------- accounts */

export const accountById = (accounts: readonly Account[], id: number | null) => (id === null ? undefined : accounts.find((a) => a.accountId === id));

/** The currency the amount is in: the chosen one, else the source account's. */
export function amountCurrency(form: TransferForm, accounts: readonly Account[]): string | null {
  return form.currency ?? accountById(accounts, form.fromAccountId)?.currency ?? null;
}

export function holdsFlag(permissions: MoneyPermissions, flag: PermissionFlag): boolean {
  const [group, name] = flag.split('.') as [keyof MoneyPermissions, string];
  return (permissions[group] as Record<string, boolean>)[name] === true;
}

/** Every flag of the kind; a payout page at least one payout method's. */
export function hasPermission(kind: TransferKind, permissions: MoneyPermissions): boolean {
  if (TRANSFER_KINDS[kind].route) return Object.values(PAYOUT_METHOD_FLAGS).some((flag) => holdsFlag(permissions, flag));
  return TRANSFER_KINDS[kind].permissions.every((flag) => holdsFlag(permissions, flag));
}

/** The methods offered for the country that the customer may use (transferMethods' answer, less those whose flag is not held). */
export function permittedMethods(methods: readonly PayoutMethod[], permissions: MoneyPermissions | null): PayoutMethod[] {
  return methods.filter((method) => permissions !== null && holdsFlag(permissions, PAYOUT_METHOD_FLAGS[method]));
}

/**
 * A patch as the form takes it: a new country, or a source in another currency, drops the method
 * chosen (what is offered depends on both). The payee's values stay: a field of the same name in
 * the next method's form keeps what was typed.
 */
export function normalisePatch(form: TransferForm, accounts: readonly Account[], patch: TransferFormPatch): TransferFormPatch {
  const countryChanged = 'countryCode' in patch && patch.countryCode !== form.countryCode;
  const currencyChanged =
    'fromAccountId' in patch && accountById(accounts, patch.fromAccountId ?? null)?.currency !== accountById(accounts, form.fromAccountId)?.currency;
  return (countryChanged || currencyChanged) && form.method !== null && !('method' in patch) ? { ...patch, method: null } : patch;
}

/* ----------------------------------------------------------------------------- the payee's route */

export interface MethodsRequest {
  countryCode: string;
  currencyCode: string;
}

/** The methods are asked once the country and the source (its currency) are chosen. */
export function methodsRequest(kind: TransferKind, form: TransferForm, accounts: readonly Account[]): MethodsRequest | null {
  const source = accountById(accounts, form.fromAccountId);
  if (!TRANSFER_KINDS[kind].route || !source || !/^[A-Z]{2}$/.test(form.countryCode)) return null;
  return { countryCode: form.countryCode, currencyCode: source.currency };
}

export interface PayeeFormRequest extends MethodsRequest {
  paymentMethod: PayoutMethod;
}

/** The payee form is asked once a method is chosen (with the country and source). */
export function payeeFormRequest(kind: TransferKind, form: TransferForm, accounts: readonly Account[]): PayeeFormRequest | null {
  const route = methodsRequest(kind, form, accounts);
  return route && form.method ? { ...route, paymentMethod: form.method } : null;
}

/* ----------------------------------------------------------------------------- lookups */

export interface FeeRequest {
  operation: TransferKind;
  amount: string;
  fromAccountId: number;
  toAccountId?: number;
  currency?: CurrencyCode;
  /** external: the method's fee call, for the country */
  method?: PayoutMethod;
  countryCode?: string;
}

/**
 * The fee is asked only when the amount and the accounts are given (document 2 §5); for p2p only
 * when the amount is above 0. Null: not yet.
 */
export function feeRequest(kind: TransferKind, form: TransferForm, accounts: readonly Account[]): FeeRequest | null {
  const rules = TRANSFER_KINDS[kind];
  if (form.fromAccountId === null || !isPositiveAmount(form.amount)) return null;
  const currency = amountCurrency(form, accounts);
  if (currency !== null && decimalsOf(form.amount) > currencyDecimals(currency)) return null;
  const request: FeeRequest = { operation: kind, amount: normaliseAmount(form.amount), fromAccountId: form.fromAccountId };
  if (rules.toAccount) {
    if (form.toAccountId === null || form.toAccountId === form.fromAccountId) return null;
    request.toAccountId = form.toAccountId;
  }
  if (rules.currencyChoice && form.currency) request.currency = form.currency as CurrencyCode;
  if (rules.route) {
    if (form.method === null || !/^[A-Z]{2}$/.test(form.countryCode)) return null;
    request.method = form.method;
    request.countryCode = form.countryCode;
    // a payout goes in the source's currency; its fee call names it
    if (currency !== null) request.currency = currency as CurrencyCode;
  }
  return request;
}

/** What limits and "send all" are asked for: the kind, or for a payout its method (null: none chosen yet). */
function limitOperation(kind: TransferKind, form: TransferForm): LimitOperation | null {
  return kind === 'external' ? form.method : kind;
}

export interface LimitsRequest {
  type: LimitOperation;
  currencyCode: CurrencyCode;
  fromAccountId: number;
}

/** The limits call is skipped without both accounts (for p2p: without the source). */
export function limitsRequest(kind: TransferKind, form: TransferForm, accounts: readonly Account[]): LimitsRequest | null {
  const source = accountById(accounts, form.fromAccountId);
  const type = limitOperation(kind, form);
  if (!source || type === null) return null;
  if (TRANSFER_KINDS[kind].toAccount && (form.toAccountId === null || form.toAccountId === form.fromAccountId)) return null;
  return { type, currencyCode: source.currency as CurrencyCode, fromAccountId: source.accountId };
}

export interface MaxAmountRequest {
  operation: LimitOperation;
  fromAccountId: number;
  toAccountId?: number;
}

/** Max-amount lookups need the source account. */
export function maxAmountRequest(kind: TransferKind, form: TransferForm): MaxAmountRequest | null {
  const operation = limitOperation(kind, form);
  if (form.fromAccountId === null || operation === null) return null;
  const request: MaxAmountRequest = { operation, fromAccountId: form.fromAccountId };
  if (TRANSFER_KINDS[kind].toAccount && form.toAccountId !== null && form.toAccountId !== form.fromAccountId) request.toAccountId = form.toAccountId;
  return request;
}

/** The payee e-mail is checked only when longer than 5 characters with an @ and a dot (document 2 §5). */
export function isCheckableEmail(text: string): boolean {
  const t = text.trim();
  return t.length > 5 && t.includes('@') && t.includes('.');
}

export const normaliseEmail = (text: string) => text.trim().toLowerCase();

/* ----------------------------------------------------------------------------- validation */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const TEXT_LIMITS = { note: 500, reference: 140, templateName: 100 } as const;

function decimalsOf(text: string): number {
  return normaliseAmount(text).split('.')[1]?.length ?? 0;
}

export interface ValidationFacts {
  accounts: readonly Account[];
  payee: PayeeCheck | null;
  limits: Limits | null;
  /** the fee quote of the form as it is now: amount and fee in the source's currency */
  quote?: { amount: string; fee: string; currency: string } | null;
  /** the user's own e-mail addresses, normalised (p2p to one of them is refused) */
  ownEmails?: readonly string[];
  /** external: the methods offered for the country (null: not known yet) and the chosen method's payee form */
  methods?: readonly PayoutMethod[] | null;
  payeeForm?: PayeeForm | null;
}

/** What the account may send now: balance less held (pending) money and its minimum balance (as the platform counts it). */
export function availableBalance(account: Account): string {
  const scaled = toScaled(account.balance) - toScaled(account.pendingAmount) - toScaled(account.accountBalanceMin);
  return fromScaled(scaled > 0n ? scaled : 0n);
}

/** An integer of 10^-8 units as a decimal string without trailing zeros. */
export function fromScaled(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const unit = 10n ** BigInt(SCALE);
  const fraction = (abs % unit).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / unit}${fraction ? `.${fraction}` : ''}`;
}

/** Amount plus fee (decimal strings of one currency). */
export const addDecimal = (a: string, b: string) => fromScaled(toScaled(a) + toScaled(b));

/**
 * The amount (with the fee once it is quoted) above the source's available balance, or null.
 * Without a quote only an amount in the source's own currency can be compared; the review needs a
 * quote, so nothing reaches it unchecked. The platform checks again when the money moves.
 */
function balanceShortfall(form: TransferForm, facts: ValidationFacts, currency: string | null): FieldError | null {
  const source = accountById(facts.accounts, form.fromAccountId);
  if (!source) return null;
  const available = availableBalance(source);
  const q = facts.quote;
  const needed = q && q.currency === source.currency ? addDecimal(q.amount, q.fee) : currency === source.currency ? normaliseAmount(form.amount) : null;
  if (needed === null || compareDecimal(needed, available) <= 0) return null;
  return { code: 'aboveBalance', available: { amount: available, currency: source.currency } };
}

/** What is wrong with the form before review (the platform checks everything again). */
export function validateForm(kind: TransferKind, form: TransferForm, facts: ValidationFacts): FieldErrors {
  const rules = TRANSFER_KINDS[kind];
  const errors: FieldErrors = {};
  if (form.fromAccountId === null || !accountById(facts.accounts, form.fromAccountId)) errors.fromAccountId = { code: 'required' };
  if (rules.toAccount) {
    if (form.toAccountId === null || !accountById(facts.accounts, form.toAccountId)) errors.toAccountId = { code: 'required' };
    else if (form.toAccountId === form.fromAccountId) errors.toAccountId = { code: 'sameAccount' };
  }
  const currency = amountCurrency(form, facts.accounts);
  if (normaliseAmount(form.amount) === '') errors.amount = { code: 'required' };
  else if (!isPositiveAmount(form.amount)) errors.amount = { code: 'amountFormat' };
  else if (currency !== null && decimalsOf(form.amount) > currencyDecimals(currency)) errors.amount = { code: 'amountDecimals' };
  else if (facts.limits && currency === facts.limits.currencyCode) {
    const amount = normaliseAmount(form.amount);
    if (compareDecimal(amount, facts.limits.minAmount) < 0) errors.amount = { code: 'belowMin' };
    else if (compareDecimal(amount, facts.limits.maxAmount) > 0) errors.amount = { code: 'aboveMax' };
    else if (compareDecimal(amount, facts.limits.dailyRemaining) > 0) errors.amount = { code: 'overDailyLimit' };
  }
  if (!errors.amount && isPositiveAmount(form.amount)) {
    const shortfall = balanceShortfall(form, facts, currency);
    if (shortfall) errors.amount = shortfall;
  }
  if (rules.payee) {
    const email = normaliseEmail(form.payeeEmail);
    if (email === '') errors.payeeEmail = { code: 'required' };
    else if (!EMAIL.test(email)) errors.payeeEmail = { code: 'email' };
    else if (facts.ownEmails?.includes(email)) errors.payeeEmail = { code: 'ownEmail' };
    else if (facts.payee && facts.payee.email === email) {
      const problem = payeeProblem(facts.payee);
      if (problem) errors.payeeEmail = { code: problem };
    }
  }
  if (rules.details) {
    for (const field of ['note', 'reference', ...(rules.template ? (['templateName'] as const) : [])] as const) {
      if (form[field].trim().length > TEXT_LIMITS[field]) errors[field] = { code: 'tooLong' };
    }
  }
  if (rules.route) Object.assign(errors, routeErrors(form, facts, currency));
  if (form.recurring) {
    const r = form.recurring;
    if (r.end === 'date' && !ISO_DATE.test(r.endDate)) errors.recurringEndDate = { code: 'endDateFormat' };
    if (r.end === 'count') {
      const n = Number(r.transactions);
      if (!/^\d{1,4}$/.test(r.transactions) || n < 2 || n > 1000) errors.recurringTransactions = { code: 'transactionsRange' };
    }
  }
  return errors;
}

/** A payout's country, method and payee form (the platform checks them again, with the IBAN's country). */
function routeErrors(form: TransferForm, facts: ValidationFacts, currency: string | null): FieldErrors {
  if (!/^[A-Z]{2}$/.test(form.countryCode)) return { countryCode: { code: 'required' } };
  if (facts.methods && facts.methods.length === 0) return { countryCode: { code: 'noMethod' } };
  if (form.method === null) return { method: { code: 'required' } };
  if (!facts.payeeForm || currency === null) return { method: { code: 'formNotLoaded' } };
  const errors: FieldErrors = {};
  const values = payeeValues(form, facts.payeeForm);
  for (const issue of checkPayeeValues(facts.payeeForm, values, { currencyCode: currency, blockedBins: facts.payeeForm.blockedBins })) {
    errors[`payee.${issue.field}`] ??= { code: 'payee', error: { param: `payee.${issue.field}`, code: issue.code, description: '' } };
  }
  return errors;
}

/** The payee's values of the current form's fields (values typed for another method's fields stay behind). */
export function payeeValues(form: TransferForm, payeeForm: PayeeForm): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of payeeForm.fields) {
    const value = form.payeeFields[field.name]?.trim() ?? '';
    if (value !== '') out[field.name] = value;
  }
  return out;
}

/** Why money cannot go to a checked payee (exist, exists, outBlacklist), or null. */
export function payeeProblem(p: PayeeCheck): 'payeeNotFound' | 'payeeCannotReceive' | 'payeeRefuses' | null {
  if (!p.exist) return 'payeeNotFound';
  if (p.outBlacklist) return 'payeeRefuses';
  if (!p.exists) return 'payeeCannotReceive';
  return null;
}

/** The fields a patch touches (their old errors no longer apply). */
export function fieldsOfPatch(patch: TransferFormPatch): TransferField[] {
  const out: TransferField[] = [];
  for (const key of Object.keys(patch) as (keyof TransferForm)[]) {
    if (key === 'recurring') out.push('recurringFrequency', 'recurringEndDate', 'recurringTransactions');
    else if (key === 'payeeFields') {
      out.push(...Object.keys(patch.payeeFields ?? {}).map((name) => `payee.${name}` as const));
      // a oneOf group's fields answer together: a value in one clears the others' errors too
      out.push('payee.email', 'payee.phone');
    } else out.push(key);
  }
  // A new source or currency changes what the amount means.
  if ('fromAccountId' in patch || 'currency' in patch) out.push('amount');
  if ('fromAccountId' in patch) out.push('toAccountId');
  return out;
}

export const touchesFee = (patch: TransferFormPatch) => ['fromAccountId', 'toAccountId', 'amount', 'currency', 'countryCode', 'method'].some((k) => k in patch);
export const touchesLimits = (patch: TransferFormPatch) => ['fromAccountId', 'toAccountId', 'method'].some((k) => k in patch);
export const touchesPayee = (patch: TransferFormPatch) => 'payeeEmail' in patch;
export const touchesMax = (patch: TransferFormPatch) => ['fromAccountId', 'toAccountId', 'method'].some((k) => k in patch);
export const touchesMethods = (patch: TransferFormPatch) => ['fromAccountId', 'countryCode'].some((k) => k in patch);
export const touchesPayeeForm = (patch: TransferFormPatch) => ['fromAccountId', 'countryCode', 'method'].some((k) => k in patch);

/* ----------------------------------------------------------------------------- requests */

type Subscription = Pick<RequestOf<typeof transferP2p>, 'subscriptionEndDate' | 'subscriptionFrequency' | 'subscriptionTransactions' | 'subscriptionUserCancel'>;

export type TransferRequest =
  | { method: 'transferBetweenAccounts'; payload: RequestOf<typeof transferBetweenAccounts> }
  | { method: 'transferP2p'; payload: RequestOf<typeof transferP2p> }
  /** every payout call takes the same request (api/payouts.ts) */
  | { method: keyof typeof PAYOUT_CALLS; payload: RequestOf<typeof wireTransfer> };

function subscriptionOf(r: RecurringForm | null): Subscription {
  if (!r) return {};
  return {
    subscriptionFrequency: r.frequency,
    subscriptionUserCancel: r.userCancel,
    ...(r.end === 'date' ? { subscriptionEndDate: r.endDate } : { subscriptionTransactions: Number(r.transactions) }),
  };
}

const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());

/** The request a valid form sends (the machine builds it once, on review, and retries send it unchanged). */
export function transferRequest(kind: TransferKind, form: TransferForm, accounts: readonly Account[], payeeForm: PayeeForm | null = null): TransferRequest {
  const currency = amountCurrency(form, accounts) as CurrencyCode;
  const amount = normaliseAmount(form.amount);
  switch (kind) {
    case 'betweenAccounts':
      return {
        method: 'transferBetweenAccounts',
        payload: { fromAccount: form.fromAccountId!, toAccount: form.toAccountId!, toAmount: amount, currency, ...subscriptionOf(form.recurring) },
      };
    case 'p2p':
      return {
        method: 'transferP2p',
        payload: {
          accountId: form.fromAccountId!,
          amount,
          currency,
          toEmail: normaliseEmail(form.payeeEmail),
          note: optional(form.note),
          reference: optional(form.reference),
          templateName: optional(form.templateName),
          ...subscriptionOf(form.recurring),
        },
      };
    case 'external':
      return {
        method: PAYOUT_CALL_OF[form.method!],
        payload: {
          fromAccountId: form.fromAccountId!,
          amount,
          currency,
          countryCode: form.countryCode,
          payee: payeeForm ? payeeValues(form, payeeForm) : {},
          reference: optional(form.reference),
          note: optional(form.note),
        },
      };
  }
}

/** The platform's VF params (the request's names) as form fields. */
const PARAM_FIELDS: Record<string, TransferField> = {
  fromAccount: 'fromAccountId',
  accountId: 'fromAccountId',
  fromAccountId: 'fromAccountId',
  toAccount: 'toAccountId',
  toAccountId: 'toAccountId',
  toAmount: 'amount',
  amount: 'amount',
  currency: 'currency',
  toEmail: 'payeeEmail',
  note: 'note',
  reference: 'reference',
  templateName: 'templateName',
  subscriptionFrequency: 'recurringFrequency',
  subscriptionEndDate: 'recurringEndDate',
  subscriptionTransactions: 'recurringTransactions',
  countryCode: 'countryCode',
};

/** Field errors from a VF list; null when some error names no field of the form (shown as a popup instead). */
export function fieldErrorsOf(errors: readonly ValidationError[]): FieldErrors | null {
  const out: FieldErrors = {};
  for (const e of errors) {
    const field = e.param.startsWith('payee.') ? (e.param as `payee.${string}`) : PARAM_FIELDS[e.param];
    if (!field) return null;
    out[field] ??= { code: 'server', error: e };
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Picking a recent transfer fills the form with its source, destination and amount. */
export function patchFromRecent(recent: RecentTransfer): TransferFormPatch {
  const patch: TransferFormPatch = { fromAccountId: recent.fromAccountId, amount: recent.amount };
  if (recent.toEmail) patch.payeeEmail = recent.toEmail;
  if (recent.toAccountId !== null) patch.toAccountId = recent.toAccountId;
  if (recent.payee && recent.countryCode && isPayoutMethod(recent.type)) {
    // a payout: its country, method and payee form again; a card's number was not kept (its BIN and last four were): typed again
    const { cardBin: _bin, cardLast4: _last4, ...fields } = recent.payee;
    Object.assign(patch, { countryCode: recent.countryCode, method: recent.type, payeeFields: fields });
  }
  return patch;
}

/** The accounts money can move from and to: the open ones. */
export function openAccounts(accounts: readonly Account[]): Account[] {
  return accounts.filter((a) => a.accountStatusId !== ACCOUNT_STATUS_CLOSED);
}
