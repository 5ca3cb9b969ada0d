/**
 * The words of the documents the platform writes itself (statement and receipt PDFs, the history
 * CSV) in the six UI languages. The server has no message catalog (Lingui runs in the web app):
 * a typed dictionary per language keeps every document's wording in one place, and the compiler
 * makes sure no language misses a word. Operation types and statuses use the web app's wording
 * (src/features/history/messages.ts), so a file reads like the screen it came from.
 *
 * Dates stay ISO (YYYY-MM-DD, HH:MM UTC) and amounts stay plain decimals with the currency code in
 * every language: unambiguous everywhere, and a spreadsheet reads them as numbers whatever its
 * locale. Month names come from Intl (Node ships full ICU).
 */
import type { OperationType } from '../../../api/history.ts';
import type { TransferStatus } from '../../../api/transfers.ts';
import { toUiLanguage } from '../dictionaries/dictionaries.service.ts';
import type { UiLanguage } from '../dictionaries/dictionaries.tables.ts';

export type DocumentLanguage = UiLanguage;
export const DOCUMENT_LANGUAGES: readonly DocumentLanguage[] = ['en', 'es', 'pt', 'ro', 'ru', 'uk'];

/** The columns of the history CSV, in order (csv.ts writes the cells in this order). */
export type CsvColumn = 'date' | 'rowId' | 'type' | 'direction' | 'status' | 'account' | 'amount' | 'currency' | 'counterparty' | 'note' | 'reference';

export interface DocumentWords {
  // statement
  statementTitle: string;
  statementOf: (month: string) => string;
  continued: string;
  customer: string;
  address: string;
  account: string;
  period: string;
  periodRange: (from: string, to: string) => string;
  openingBalance: string;
  closingBalance: string;
  totalIn: string;
  totalOut: string;
  date: string;
  description: string;
  amountIn: (currency: string) => string;
  balance: string;
  noMovements: string;
  generated: (when: string) => string;
  page: (i: number, n: number) => string;
  // statement descriptions
  withdrawal: string;
  paymentTo: (party: string) => string;
  paymentFrom: (party: string) => string;
  exchangeTo: (party: string) => string;
  exchangeFrom: (party: string) => string;
  transferTo: (party: string) => string;
  transferFrom: (party: string) => string;
  referenceShort: (reference: string) => string;
  // receipt
  receiptTitle: string;
  transactionId: string;
  dateTime: string;
  type: string;
  status: string;
  direction: string;
  bookedAt: string;
  statusChangedAt: string;
  expiresAt: string;
  amount: string;
  fee: string;
  totalDebited: string;
  amountCredited: string;
  exchangeRate: string;
  fromAccount: string;
  toAccount: string;
  counterparty: string;
  note: string;
  reference: string;
  none: string;
  operationTypes: Record<OperationType, string>;
  statuses: Record<TransferStatus, string>;
  directions: Record<'in' | 'out', string>;
  // receipt: a revenue split (issue 19 item 2; contracts/split.ts)
  /** the type of a split's own entry, on both sides */
  revenueSplitShare: string;
  /** the label of the contract line */
  contract: string;
  /** the contract's number as the contract line shows it */
  contractNumber: (id: number) => string;
  /** the label of a share a split took of an incoming payment */
  splitShareLabel: string;
  /** that share in words: amount with its currency, the beneficiary, the contract's number (contractNumber) */
  splitShareWent: (amount: string, beneficiary: string, contract: string) => string;
  // footer
  registrationNumber: (n: string) => string;
  regulatedBy: (regulator: string) => string;
  support: string;
  // CSV
  csvHeader: Record<CsvColumn, string>;
}

const en: DocumentWords = {
  statementTitle: 'Account statement',
  statementOf: (month) => `Account statement, ${month}`,
  continued: '(continued)',
  customer: 'Customer',
  address: 'Address',
  account: 'Account',
  period: 'Period',
  periodRange: (from, to) => `${from} to ${to}`,
  openingBalance: 'Opening balance',
  closingBalance: 'Closing balance',
  totalIn: 'Total in',
  totalOut: 'Total out',
  date: 'Date',
  description: 'Description',
  amountIn: (c) => `Amount (${c})`,
  balance: 'Balance',
  noMovements: 'No movements in this period.',
  generated: (when) => `Generated ${when} UTC`,
  page: (i, n) => `Page ${i} of ${n}`,
  withdrawal: 'Withdrawal',
  paymentTo: (p) => `Payment to ${p}`,
  paymentFrom: (p) => `Payment from ${p}`,
  exchangeTo: (p) => `Exchange to ${p}`,
  exchangeFrom: (p) => `Exchange from ${p}`,
  transferTo: (p) => `Transfer to ${p}`,
  transferFrom: (p) => `Transfer from ${p}`,
  referenceShort: (r) => `ref. ${r}`,
  receiptTitle: 'Transaction receipt',
  transactionId: 'Transaction ID',
  dateTime: 'Date and time',
  type: 'Type',
  status: 'Status',
  direction: 'Direction',
  bookedAt: 'Booked',
  statusChangedAt: 'Status changed',
  expiresAt: 'Expires unless approved',
  amount: 'Amount',
  fee: 'Fee',
  totalDebited: 'Total debited',
  amountCredited: 'Amount credited',
  exchangeRate: 'Exchange rate',
  fromAccount: 'Debit account',
  toAccount: 'Credit account',
  counterparty: 'Counterparty',
  note: 'Note',
  reference: 'Reference',
  none: '—',
  operationTypes: { betweenAccounts: 'Between own accounts', exchange: 'Currency exchange', p2p: 'Payment to a person', deposit: 'Deposit', Fees: 'Fee', wire: 'Wire transfer', eft: 'Bank transfer', oct: 'Payment to a card', digital: 'Crypto withdrawal', instant: 'Instant payment', interac: 'Interac e-Transfer', cardPayment: 'Card payment' },
  statuses: { pending: 'Pending', processing: 'Processing', posted: 'Completed', returned: 'Returned', rejected: 'Rejected', expired: 'Expired', canceled: 'Canceled' },
  directions: { in: 'Incoming', out: 'Outgoing' },
  revenueSplitShare: 'Revenue split share',
  contract: 'Contract',
  contractNumber: (n) => `#${n}`,
  splitShareLabel: 'Revenue split',
  splitShareWent: (a, b, c) => `${a} went to ${b} under contract ${c}`,
  registrationNumber: (n) => `Registration no. ${n}`,
  regulatedBy: (r) => `Regulated by ${r}`,
  support: 'Support',
  csvHeader: {
    date: 'Date', rowId: 'Transaction ID', type: 'Type', direction: 'Direction', status: 'Status', account: 'Account', amount: 'Amount',
    currency: 'Currency', counterparty: 'Counterparty', note: 'Note', reference: 'Reference',
  },
};

const es: DocumentWords = {
  statementTitle: 'Extracto de cuenta',
  statementOf: (month) => `Extracto de cuenta, ${month}`,
  continued: '(continuación)',
  customer: 'Cliente',
  address: 'Dirección',
  account: 'Cuenta',
  period: 'Periodo',
  periodRange: (from, to) => `del ${from} al ${to}`,
  openingBalance: 'Saldo inicial',
  closingBalance: 'Saldo final',
  totalIn: 'Total de entradas',
  totalOut: 'Total de salidas',
  date: 'Fecha',
  description: 'Descripción',
  amountIn: (c) => `Importe (${c})`,
  balance: 'Saldo',
  noMovements: 'No hay movimientos en este periodo.',
  generated: (when) => `Generado el ${when} UTC`,
  page: (i, n) => `Página ${i} de ${n}`,
  withdrawal: 'Retirada',
  paymentTo: (p) => `Pago a ${p}`,
  paymentFrom: (p) => `Pago de ${p}`,
  exchangeTo: (p) => `Cambio a ${p}`,
  exchangeFrom: (p) => `Cambio desde ${p}`,
  transferTo: (p) => `Transferencia a ${p}`,
  transferFrom: (p) => `Transferencia desde ${p}`,
  referenceShort: (r) => `ref. ${r}`,
  receiptTitle: 'Justificante de la operación',
  transactionId: 'ID de la operación',
  dateTime: 'Fecha y hora',
  type: 'Tipo',
  status: 'Estado',
  direction: 'Sentido',
  bookedAt: 'Contabilizada',
  statusChangedAt: 'Cambio de estado',
  expiresAt: 'Caduca si no se aprueba',
  amount: 'Importe',
  fee: 'Comisión',
  totalDebited: 'Total cargado',
  amountCredited: 'Importe abonado',
  exchangeRate: 'Tipo de cambio',
  fromAccount: 'Cuenta de cargo',
  toAccount: 'Cuenta de abono',
  counterparty: 'Contraparte',
  note: 'Nota',
  reference: 'Referencia',
  none: '—',
  operationTypes: { betweenAccounts: 'Entre cuentas propias', exchange: 'Cambio de divisa', p2p: 'Pago a una persona', deposit: 'Ingreso', Fees: 'Comisión', wire: 'Transferencia internacional', eft: 'Transferencia bancaria', oct: 'Pago a una tarjeta', digital: 'Retiro de criptomonedas', instant: 'Pago instantáneo', interac: 'Interac e-Transfer', cardPayment: 'Pago con tarjeta' },
  statuses: { pending: 'Pendiente', processing: 'En proceso', posted: 'Completado', returned: 'Devuelto', rejected: 'Rechazado', expired: 'Caducado', canceled: 'Cancelado' },
  directions: { in: 'Entrante', out: 'Saliente' },
  revenueSplitShare: 'Parte del reparto de ingresos',
  contract: 'Contrato',
  contractNumber: (n) => `n.º ${n}`,
  splitShareLabel: 'Reparto de ingresos',
  splitShareWent: (a, b, c) => `${a} se transfirieron a ${b} según el contrato ${c}`,
  registrationNumber: (n) => `N.º de registro ${n}`,
  regulatedBy: (r) => `Supervisada por ${r}`,
  support: 'Soporte',
  csvHeader: {
    date: 'Fecha', rowId: 'ID de la operación', type: 'Tipo', direction: 'Sentido', status: 'Estado', account: 'Cuenta', amount: 'Importe',
    currency: 'Divisa', counterparty: 'Contraparte', note: 'Nota', reference: 'Referencia',
  },
};

const pt: DocumentWords = {
  statementTitle: 'Extrato de conta',
  statementOf: (month) => `Extrato de conta, ${month}`,
  continued: '(continuação)',
  customer: 'Cliente',
  address: 'Endereço',
  account: 'Conta',
  period: 'Período',
  periodRange: (from, to) => `de ${from} a ${to}`,
  openingBalance: 'Saldo inicial',
  closingBalance: 'Saldo final',
  totalIn: 'Total de entradas',
  totalOut: 'Total de saídas',
  date: 'Data',
  description: 'Descrição',
  amountIn: (c) => `Montante (${c})`,
  balance: 'Saldo',
  noMovements: 'Sem movimentos neste período.',
  generated: (when) => `Gerado em ${when} UTC`,
  page: (i, n) => `Página ${i} de ${n}`,
  withdrawal: 'Levantamento',
  paymentTo: (p) => `Pagamento a ${p}`,
  paymentFrom: (p) => `Pagamento de ${p}`,
  exchangeTo: (p) => `Câmbio para ${p}`,
  exchangeFrom: (p) => `Câmbio de ${p}`,
  transferTo: (p) => `Transferência para ${p}`,
  transferFrom: (p) => `Transferência de ${p}`,
  referenceShort: (r) => `ref. ${r}`,
  receiptTitle: 'Comprovativo da operação',
  transactionId: 'ID da operação',
  dateTime: 'Data e hora',
  type: 'Tipo',
  status: 'Estado',
  direction: 'Sentido',
  bookedAt: 'Contabilizada',
  statusChangedAt: 'Alteração de estado',
  expiresAt: 'Expira se não for aprovada',
  amount: 'Montante',
  fee: 'Comissão',
  totalDebited: 'Total debitado',
  amountCredited: 'Montante creditado',
  exchangeRate: 'Taxa de câmbio',
  fromAccount: 'Conta debitada',
  toAccount: 'Conta creditada',
  counterparty: 'Contraparte',
  note: 'Nota',
  reference: 'Referência',
  none: '—',
  operationTypes: { betweenAccounts: 'Entre contas próprias', exchange: 'Câmbio', p2p: 'Pagamento a uma pessoa', deposit: 'Depósito', Fees: 'Comissão', wire: 'Transferência internacional', eft: 'Transferência bancária', oct: 'Pagamento para um cartão', digital: 'Levantamento de criptomoedas', instant: 'Pagamento instantâneo', interac: 'Interac e-Transfer', cardPayment: 'Pagamento com cartão' },
  statuses: { pending: 'Pendente', processing: 'Em processamento', posted: 'Concluída', returned: 'Devolvida', rejected: 'Rejeitada', expired: 'Expirada', canceled: 'Cancelada' },
  directions: { in: 'Entrada', out: 'Saída' },
  revenueSplitShare: 'Parte da partilha de receitas',
  contract: 'Contrato',
  contractNumber: (n) => `n.º ${n}`,
  splitShareLabel: 'Partilha de receitas',
  splitShareWent: (a, b, c) => `${a} foram transferidos para ${b} ao abrigo do contrato ${c}`,
  registrationNumber: (n) => `N.º de registo ${n}`,
  regulatedBy: (r) => `Supervisionada por ${r}`,
  support: 'Suporte',
  csvHeader: {
    date: 'Data', rowId: 'ID da operação', type: 'Tipo', direction: 'Sentido', status: 'Estado', account: 'Conta', amount: 'Montante',
    currency: 'Moeda', counterparty: 'Contraparte', note: 'Nota', reference: 'Referência',
  },
};

const ro: DocumentWords = {
  statementTitle: 'Extras de cont',
  statementOf: (month) => `Extras de cont, ${month}`,
  continued: '(continuare)',
  customer: 'Client',
  address: 'Adresă',
  account: 'Cont',
  period: 'Perioadă',
  periodRange: (from, to) => `${from} – ${to}`,
  openingBalance: 'Sold inițial',
  closingBalance: 'Sold final',
  totalIn: 'Total intrări',
  totalOut: 'Total ieșiri',
  date: 'Data',
  description: 'Descriere',
  amountIn: (c) => `Sumă (${c})`,
  balance: 'Sold',
  noMovements: 'Nicio tranzacție în această perioadă.',
  generated: (when) => `Generat la ${when} UTC`,
  page: (i, n) => `Pagina ${i} din ${n}`,
  withdrawal: 'Retragere',
  paymentTo: (p) => `Plată către ${p}`,
  paymentFrom: (p) => `Plată de la ${p}`,
  exchangeTo: (p) => `Schimb în ${p}`,
  exchangeFrom: (p) => `Schimb din ${p}`,
  transferTo: (p) => `Transfer către ${p}`,
  transferFrom: (p) => `Transfer de la ${p}`,
  referenceShort: (r) => `ref. ${r}`,
  receiptTitle: 'Chitanța tranzacției',
  transactionId: 'ID tranzacție',
  dateTime: 'Data și ora',
  type: 'Tip',
  status: 'Stare',
  direction: 'Sens',
  bookedAt: 'Înregistrată',
  statusChangedAt: 'Schimbarea stării',
  expiresAt: 'Expiră dacă nu este aprobată',
  amount: 'Sumă',
  fee: 'Comision',
  totalDebited: 'Total debitat',
  amountCredited: 'Sumă creditată',
  exchangeRate: 'Curs de schimb',
  fromAccount: 'Cont debitat',
  toAccount: 'Cont creditat',
  counterparty: 'Contrapartidă',
  note: 'Mesaj',
  reference: 'Referință',
  none: '—',
  operationTypes: { betweenAccounts: 'Între conturi proprii', exchange: 'Schimb valutar', p2p: 'Plată către o persoană', deposit: 'Depunere', Fees: 'Comision', wire: 'Transfer internațional', eft: 'Transfer bancar', oct: 'Plată pe card', digital: 'Retragere cripto', instant: 'Plată instant', interac: 'Interac e-Transfer', cardPayment: 'Plată cu cardul' },
  statuses: { pending: 'În așteptare', processing: 'În procesare', posted: 'Finalizată', returned: 'Returnată', rejected: 'Respinsă', expired: 'Expirată', canceled: 'Anulată' },
  directions: { in: 'Intrare', out: 'Ieșire' },
  revenueSplitShare: 'Cotă din împărțirea veniturilor',
  contract: 'Contract',
  contractNumber: (n) => `nr. ${n}`,
  splitShareLabel: 'Împărțirea veniturilor',
  splitShareWent: (a, b, c) => `${a} au fost transferați către ${b} conform contractului ${c}`,
  registrationNumber: (n) => `Nr. de înregistrare ${n}`,
  regulatedBy: (r) => `Supravegheată de ${r}`,
  support: 'Asistență',
  csvHeader: {
    date: 'Data', rowId: 'ID tranzacție', type: 'Tip', direction: 'Sens', status: 'Stare', account: 'Cont', amount: 'Sumă',
    currency: 'Monedă', counterparty: 'Contrapartidă', note: 'Mesaj', reference: 'Referință',
  },
};

const ru: DocumentWords = {
  statementTitle: 'Выписка по счёту',
  statementOf: (month) => `Выписка по счёту, ${month}`,
  continued: '(продолжение)',
  customer: 'Клиент',
  address: 'Адрес',
  account: 'Счёт',
  period: 'Период',
  periodRange: (from, to) => `с ${from} по ${to}`,
  openingBalance: 'Входящий остаток',
  closingBalance: 'Исходящий остаток',
  totalIn: 'Всего поступлений',
  totalOut: 'Всего списаний',
  date: 'Дата',
  description: 'Описание',
  amountIn: (c) => `Сумма (${c})`,
  balance: 'Остаток',
  noMovements: 'За этот период операций нет.',
  generated: (when) => `Сформировано ${when} UTC`,
  page: (i, n) => `Страница ${i} из ${n}`,
  withdrawal: 'Списание',
  paymentTo: (p) => `Перевод: ${p}`,
  paymentFrom: (p) => `Поступление от: ${p}`,
  exchangeTo: (p) => `Обмен на счёт ${p}`,
  exchangeFrom: (p) => `Обмен со счёта ${p}`,
  transferTo: (p) => `Перевод на счёт ${p}`,
  transferFrom: (p) => `Перевод со счёта ${p}`,
  referenceShort: (r) => `назн. ${r}`,
  receiptTitle: 'Квитанция об операции',
  transactionId: 'ID операции',
  dateTime: 'Дата и время',
  type: 'Тип',
  status: 'Статус',
  direction: 'Направление',
  bookedAt: 'Проведена',
  statusChangedAt: 'Статус изменён',
  expiresAt: 'Истекает без подтверждения',
  amount: 'Сумма',
  fee: 'Комиссия',
  totalDebited: 'Всего списано',
  amountCredited: 'Зачислено',
  exchangeRate: 'Курс обмена',
  fromAccount: 'Счёт списания',
  toAccount: 'Счёт зачисления',
  counterparty: 'Контрагент',
  note: 'Сообщение',
  reference: 'Назначение платежа',
  none: '—',
  operationTypes: { betweenAccounts: 'Между своими счетами', exchange: 'Обмен валюты', p2p: 'Перевод другому человеку', deposit: 'Пополнение', Fees: 'Комиссия', wire: 'Международный перевод', eft: 'Банковский перевод', oct: 'Перевод на карту', digital: 'Вывод криптовалюты', instant: 'Мгновенный платёж', interac: 'Interac e-Transfer', cardPayment: 'Оплата картой' },
  statuses: { pending: 'В обработке', processing: 'Отправляется', posted: 'Выполнено', returned: 'Возвращено', rejected: 'Отклонено', expired: 'Срок истёк', canceled: 'Отменено' },
  directions: { in: 'Входящая', out: 'Исходящая' },
  revenueSplitShare: 'Доля по распределению дохода',
  contract: 'Договор',
  contractNumber: (n) => `№ ${n}`,
  splitShareLabel: 'Распределение дохода',
  splitShareWent: (a, b, c) => `${a} переведено ${b} по договору ${c}`,
  registrationNumber: (n) => `Рег. номер ${n}`,
  regulatedBy: (r) => `Надзор: ${r}`,
  support: 'Поддержка',
  csvHeader: {
    date: 'Дата', rowId: 'ID операции', type: 'Тип', direction: 'Направление', status: 'Статус', account: 'Счёт', amount: 'Сумма',
    currency: 'Валюта', counterparty: 'Контрагент', note: 'Сообщение', reference: 'Назначение платежа',
  },
};

const uk: DocumentWords = {
  statementTitle: 'Виписка з рахунку',
  statementOf: (month) => `Виписка з рахунку, ${month}`,
  continued: '(продовження)',
  customer: 'Клієнт',
  address: 'Адреса',
  account: 'Рахунок',
  period: 'Період',
  periodRange: (from, to) => `з ${from} по ${to}`,
  openingBalance: 'Вхідний залишок',
  closingBalance: 'Вихідний залишок',
  totalIn: 'Усього надходжень',
  totalOut: 'Усього списань',
  date: 'Дата',
  description: 'Опис',
  amountIn: (c) => `Сума (${c})`,
  balance: 'Залишок',
  noMovements: 'За цей період операцій немає.',
  generated: (when) => `Сформовано ${when} UTC`,
  page: (i, n) => `Сторінка ${i} з ${n}`,
  withdrawal: 'Списання',
  paymentTo: (p) => `Переказ: ${p}`,
  paymentFrom: (p) => `Надходження від: ${p}`,
  exchangeTo: (p) => `Обмін на рахунок ${p}`,
  exchangeFrom: (p) => `Обмін з рахунку ${p}`,
  transferTo: (p) => `Переказ на рахунок ${p}`,
  transferFrom: (p) => `Переказ з рахунку ${p}`,
  referenceShort: (r) => `реф. ${r}`,
  receiptTitle: 'Квитанція про операцію',
  transactionId: 'ID операції',
  dateTime: 'Дата і час',
  type: 'Тип',
  status: 'Статус',
  direction: 'Напрямок',
  bookedAt: 'Проведено',
  statusChangedAt: 'Статус змінено',
  expiresAt: 'Спливає без підтвердження',
  amount: 'Сума',
  fee: 'Комісія',
  totalDebited: 'Усього списано',
  amountCredited: 'Зараховано',
  exchangeRate: 'Курс обміну',
  fromAccount: 'Рахунок списання',
  toAccount: 'Рахунок зарахування',
  counterparty: 'Контрагент',
  note: 'Примітка',
  reference: 'Референс',
  none: '—',
  operationTypes: { betweenAccounts: 'Між власними рахунками', exchange: 'Обмін валюти', p2p: 'Платіж іншій особі', deposit: 'Поповнення', Fees: 'Комісія', wire: 'Міжнародний переказ', eft: 'Банківський переказ', oct: 'Переказ на картку', digital: 'Виведення криптовалюти', instant: 'Миттєвий платіж', interac: 'Interac e-Transfer', cardPayment: 'Оплата карткою' },
  statuses: { pending: 'В обробці', processing: 'Надсилається', posted: 'Виконано', returned: 'Повернуто', rejected: 'Відхилено', expired: 'Прострочено', canceled: 'Скасовано' },
  directions: { in: 'Вхідна', out: 'Вихідна' },
  revenueSplitShare: 'Частка за розподілом доходу',
  contract: 'Договір',
  contractNumber: (n) => `№ ${n}`,
  splitShareLabel: 'Розподіл доходу',
  splitShareWent: (a, b, c) => `${a} переказано ${b} за договором ${c}`,
  registrationNumber: (n) => `Реєстр. номер ${n}`,
  regulatedBy: (r) => `Нагляд: ${r}`,
  support: 'Підтримка',
  csvHeader: {
    date: 'Дата', rowId: 'ID операції', type: 'Тип', direction: 'Напрямок', status: 'Статус', account: 'Рахунок', amount: 'Сума',
    currency: 'Валюта', counterparty: 'Контрагент', note: 'Примітка', reference: 'Референс',
  },
};

export const documentWords: Readonly<Record<DocumentLanguage, DocumentWords>> = { en, es, pt, ro, ru, uk };

export function wordsFor(lang: DocumentLanguage): DocumentWords {
  return documentWords[lang];
}

/**
 * The document language of a request: the customer's saved settings language first (what they
 * chose in the app; `ua` is Ukrainian), then the first supported language of Accept-Language,
 * else English.
 */
export function documentLanguage(saved: string | null | undefined, acceptLanguage?: string | string[]): DocumentLanguage {
  if (saved) return toUiLanguage(saved);
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  for (const part of (header ?? '').split(',').slice(0, 10)) {
    const tag = part.split(';')[0]!.trim().toLowerCase().slice(0, 2);
    const lang = toUiLanguage(tag, 'en');
    if (lang !== 'en' || tag === 'en') return lang;
  }
  return 'en';
}

/** "March 2026" in the language (the calendar month, UTC). */
export function monthName(lang: DocumentLanguage, year: number, month: number): string {
  return new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, 15)));
}
