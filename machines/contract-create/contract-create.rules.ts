/**
 * The create form's rules (document 3 §5 "Contract create"; api/contracts.ts ContractCreateSchema):
 * the same limits the platform checks, so the customer is told on the field before anything is
 * sent. The form speaks of "this company" (the one chosen) and "the counterparty" (found by e-mail);
 * who pays decides which of them is the sender (payer) and which the beneficiary.
 */
import { OBLIGATION_MAX, OBLIGATIONS_MAX, SIGNER_NAME_MAX, CONTRACT_NOTE_MAX, type ContractCreate } from '../../api/contracts.ts';

export type Direction = 'pay' | 'receive';
export type Side = 'own' | 'counterparty';

export interface ContractDraft {
  companyId: number | null;
  counterpartyId: number | null;
  /** pay: this company pays the counterparty (it is the sender) */
  direction: Direction;
  ownSignerName: string;
  counterpartySignerName: string;
  ownObligations: string[];
  counterpartyObligations: string[];
  /** as typed: 30, 12.5, 12,50 */
  percentage: string;
  /** YYYY-MM-DD */
  activeFrom: string;
  note: string;
}

export type DraftField =
  'companyId' | 'counterparty' | 'direction' | 'ownSignerName' | 'counterpartySignerName' | 'ownObligations' | 'counterpartyObligations' | 'percentage' | 'activeFrom' | 'note';
/** a code of api/errors.ts with its parameters (the view words it as validation-messages.ts does) */
export type FieldError = { code: string; params?: Record<string, string | number> };
export type FieldErrors = Partial<Record<DraftField, FieldError>>;

export const emptyDraft = (companyId: number | null, today: string): ContractDraft => ({
  companyId,
  counterpartyId: null,
  direction: 'pay',
  ownSignerName: '',
  counterpartySignerName: '',
  ownObligations: [''],
  counterpartyObligations: [''],
  percentage: '',
  activeFrom: today,
  note: '',
});

const PERCENTAGE = /^\d{1,3}([.,]\d{1,2})?$/;

/** "12,5" -> 12.5; null when it is not a number with at most two decimals */
export function parsePercentage(text: string): number | null {
  const trimmed = text.trim();
  if (!PERCENTAGE.test(trimmed)) return null;
  return Number(trimmed.replace(',', '.'));
}

const textError = (text: string, max: number): FieldError | undefined =>
  text.trim() === '' ? { code: 'required' } : text.trim().length > max ? { code: 'tooLong', params: { max } } : undefined;

function listError(items: string[]): FieldError | undefined {
  const filled = items.filter((i) => i.trim() !== '');
  if (filled.length === 0) return { code: 'tooFewItems', params: { min: 1 } };
  if (items.length > OBLIGATIONS_MAX) return { code: 'tooManyItems', params: { max: OBLIGATIONS_MAX } };
  if (filled.some((i) => i.trim().length > OBLIGATION_MAX)) return { code: 'tooLong', params: { max: OBLIGATION_MAX } };
  return undefined;
}

/** The draft's problems, field by field (empty when it may be reviewed). `today`: YYYY-MM-DD in UTC. */
export function validateDraft(d: ContractDraft, today: string): FieldErrors {
  const e: FieldErrors = {};
  if (d.companyId === null) e.companyId = { code: 'required' };
  if (d.counterpartyId === null) e.counterparty = { code: 'required' };
  const own = textError(d.ownSignerName, SIGNER_NAME_MAX);
  if (own) e.ownSignerName = own;
  const other = textError(d.counterpartySignerName, SIGNER_NAME_MAX);
  if (other) e.counterpartySignerName = other;
  const ownList = listError(d.ownObligations);
  if (ownList) e.ownObligations = ownList;
  const otherList = listError(d.counterpartyObligations);
  if (otherList) e.counterpartyObligations = otherList;
  const p = parsePercentage(d.percentage);
  if (d.percentage.trim() === '') e.percentage = { code: 'required' };
  else if (p === null) e.percentage = { code: 'amountFormat' };
  else if (p <= 0) e.percentage = { code: 'tooSmall', params: { min: 0.01 } };
  else if (p > 100) e.percentage = { code: 'tooLarge', params: { max: 100 } };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d.activeFrom)) e.activeFrom = { code: 'notDate' };
  else if (d.activeFrom < today) e.activeFrom = { code: 'notInPast' };
  if (d.note.trim().length > CONTRACT_NOTE_MAX) e.note = { code: 'tooLong', params: { max: CONTRACT_NOTE_MAX } };
  return e;
}

export const hasErrors = (e: FieldErrors) => Object.keys(e).length > 0;

/** The PUT /contract payload: who pays decides the sender and the beneficiary. */
export function payloadOf(d: ContractDraft): ContractCreate {
  const clean = (items: string[]) => items.map((i) => i.trim()).filter((i) => i !== '');
  const own = { id: d.companyId!, signer: d.ownSignerName.trim(), obligations: clean(d.ownObligations) };
  const other = { id: d.counterpartyId!, signer: d.counterpartySignerName.trim(), obligations: clean(d.counterpartyObligations) };
  const [sender, beneficiary] = d.direction === 'pay' ? [own, other] : [other, own];
  return {
    companyId: d.companyId!,
    senderId: sender.id,
    senderSignerName: sender.signer,
    senderObligations: sender.obligations,
    beneficiaryId: beneficiary.id,
    beneficiarySignerName: beneficiary.signer,
    beneficiaryObligations: beneficiary.obligations,
    activeFrom: d.activeFrom,
    percentage: parsePercentage(d.percentage) ?? 0,
    note: d.note.trim() === '' ? null : d.note.trim(),
  };
}

/** The platform's VF entries (param senderSignerName, beneficiaryObligations.0, ...) on the form's fields. */
export function fieldOfParam(param: string, direction: Direction): DraftField | null {
  const root = param.split(/[.[]/)[0] ?? '';
  const senderIsOwn = direction === 'pay';
  const byParam: Record<string, DraftField> = {
    companyId: 'companyId',
    senderId: senderIsOwn ? 'companyId' : 'counterparty',
    beneficiaryId: senderIsOwn ? 'counterparty' : 'companyId',
    senderSignerName: senderIsOwn ? 'ownSignerName' : 'counterpartySignerName',
    beneficiarySignerName: senderIsOwn ? 'counterpartySignerName' : 'ownSignerName',
    senderObligations: senderIsOwn ? 'ownObligations' : 'counterpartyObligations',
    beneficiaryObligations: senderIsOwn ? 'counterpartyObligations' : 'ownObligations',
    percentage: 'percentage',
    activeFrom: 'activeFrom',
    note: 'note',
  };
  return byParam[root] ?? null;
}
