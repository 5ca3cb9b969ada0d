/**
 * Currencies the platform holds accounts in. Amounts are integers in minor units; `exponent` is
 * the number of decimals of one unit (EUR 2: 1 EUR = 100 minor units).
 */
import { DictionaryKey, fromTuple, type DictionaryRow, type NameTuple } from './types.ts';

interface CurrencySeed {
  code: string;
  exponent: number;
  symbol: string;
  crypto: boolean;
  names: NameTuple;
}

/**
 * The ledger caps minor units at 8 decimals (DESIGN.md: "currency exponent up to 8"), so that every
 * amount fits a PostgreSQL bigint with room to spare and one rounding rule serves every currency.
 * Bitcoin's satoshi is exactly 8 decimals. Ether natively has 18 decimals (wei), which would
 * overflow a bigint at about 9.2 ETH, so ETH is held here in units of 1e-8 ETH (10 gwei): finer
 * than any fee the platform charges, and the same 8-decimal display rule as the spec's amount
 * formatting ("8 decimals then trimmed").
 */
const MAX_EXPONENT = 8;

export const currencies: readonly CurrencySeed[] = [
  { code: 'EUR', exponent: 2, symbol: '€', crypto: false, names: ['Euro', 'Euro', 'Euro', 'Euro', 'Евро', 'Євро'] },
  {
    code: 'USD',
    exponent: 2,
    symbol: '$',
    crypto: false,
    names: ['US dollar', 'Dólar estadounidense', 'Dólar americano', 'Dolar american', 'Доллар США', 'Долар США'],
  },
  {
    code: 'AUD',
    exponent: 2,
    symbol: 'A$',
    crypto: false,
    names: [
      'Australian dollar',
      'Dólar australiano',
      'Dólar australiano',
      'Dolar australian',
      'Австралийский доллар',
      'Австралійський долар',
    ],
  },
  {
    code: 'CAD',
    exponent: 2,
    symbol: 'C$',
    crypto: false,
    names: ['Canadian dollar', 'Dólar canadiense', 'Dólar canadense', 'Dolar canadian', 'Канадский доллар', 'Канадський долар'],
  },
  {
    code: 'GBP',
    exponent: 2,
    symbol: '£',
    crypto: false,
    names: ['Pound sterling', 'Libra esterlina', 'Libra esterlina', 'Liră sterlină', 'Фунт стерлингов', 'Фунт стерлінгів'],
  },
  {
    code: 'RON',
    exponent: 2,
    symbol: 'lei',
    crypto: false,
    names: ['Romanian leu', 'Leu rumano', 'Leu romeno', 'Leu românesc', 'Румынский лей', 'Румунський лей'],
  },
  { code: 'BTC', exponent: 8, symbol: '₿', crypto: true, names: ['Bitcoin', 'Bitcoin', 'Bitcoin', 'Bitcoin', 'Биткоин', 'Біткоїн'] },
  {
    code: 'ETH',
    exponent: MAX_EXPONENT,
    symbol: 'Ξ',
    crypto: true,
    names: ['Ether', 'Ether', 'Ether', 'Ether', 'Эфир (Ethereum)', 'Етер (Ethereum)'],
  },
];

export function currencyRows(): DictionaryRow[] {
  return currencies.map((currency, index) => {
    if (!Number.isInteger(currency.exponent) || currency.exponent < 0 || currency.exponent > MAX_EXPONENT) {
      throw new Error(`currency ${currency.code}: exponent ${currency.exponent} outside 0..${MAX_EXPONENT}`);
    }
    return {
      dictionary: DictionaryKey.currencies,
      itemKey: currency.code,
      sortOrder: (index + 1) * 10,
      parentKey: null,
      data: { exponent: currency.exponent, symbol: currency.symbol, crypto: currency.crypto },
      names: fromTuple(currency.names),
    };
  });
}
