/**
 * Transaction types shown in history filters. `data.code` is the machine name the rest of the
 * platform uses for the operation (document 2 §7: betweenAccounts, p2p, eft, wire, digital, ...).
 */
import { DictionaryKey, fromTuple, type DictionaryRow, type NameTuple } from './types.ts';

const transactionTypes: readonly (readonly [number, string, NameTuple])[] = [
  [1, 'betweenAccounts', ['Transfer between own accounts', 'Transferencia entre cuentas propias', 'Transferência entre contas próprias', 'Transfer între conturi proprii', 'Перевод между своими счетами', 'Переказ між власними рахунками']],
  [2, 'p2p', ['Person to person', 'Entre personas', 'Entre pessoas', 'Între persoane', 'Перевод между людьми', 'Переказ між людьми']],
  [3, 'exchange', ['Currency exchange', 'Cambio de divisa', 'Câmbio de moeda', 'Schimb valutar', 'Обмен валюты', 'Обмін валюти']],
  [4, 'eft', ['External bank transfer', 'Transferencia bancaria externa', 'Transferência bancária externa', 'Transfer bancar extern', 'Внешний банковский перевод', 'Зовнішній банківський переказ']],
  [5, 'wire', ['Wire transfer', 'Transferencia internacional', 'Transferência internacional', 'Transfer internațional', 'Международный перевод', 'Міжнародний переказ']],
  [6, 'digital', ['Crypto transfer', 'Transferencia cripto', 'Transferência de cripto', 'Transfer cripto', 'Криптоперевод', 'Криптопереказ']],
  [7, 'cardPayment', ['Card payment', 'Pago con tarjeta', 'Pagamento com cartão', 'Plată cu cardul', 'Оплата картой', 'Оплата карткою']],
  [8, 'cardTopUp', ['Card top-up', 'Recarga de tarjeta', 'Carregamento de cartão', 'Alimentare card', 'Пополнение карты', 'Поповнення картки']],
  [9, 'fee', ['Fee', 'Comisión', 'Comissão', 'Comision', 'Комиссия', 'Комісія']],
  [10, 'refund', ['Refund', 'Reembolso', 'Reembolso', 'Rambursare', 'Возврат', 'Повернення коштів']],
  [11, 'invoicePayment', ['Invoice payment', 'Pago de factura', 'Pagamento de fatura', 'Plată factură', 'Оплата счёта', 'Оплата рахунку-фактури']],
  [12, 'batch', ['Batch transfer', 'Transferencia masiva', 'Transferência em lote', 'Transfer în lot', 'Массовый перевод', 'Масовий переказ']],
  [13, 'instant', ['Instant transfer', 'Transferencia instantánea', 'Transferência instantânea', 'Transfer instant', 'Мгновенный перевод', 'Миттєвий переказ']],
  [14, 'interac', ['Interac e-Transfer', 'Interac e-Transfer', 'Interac e-Transfer', 'Interac e-Transfer', 'Перевод Interac', 'Переказ Interac']],
];

export function transactionTypeRows(): DictionaryRow[] {
  return transactionTypes.map(([id, code, tuple], index) => ({
    dictionary: DictionaryKey.transactionTypes,
    itemKey: String(id),
    sortOrder: (index + 1) * 10,
    parentKey: null,
    data: { code },
    names: fromTuple(tuple),
  }));
}
