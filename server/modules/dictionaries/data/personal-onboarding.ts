/**
 * Personal registration dictionaries: the agreements a customer accepts (with the path of the
 * document inside the web app) and the estimated monthly deposit ranges.
 */
import { DictionaryKey, fromTuple, type DictionaryRow, type NameTuple } from './types.ts';

const agreements: readonly (readonly [number, string, NameTuple])[] = [
  [1, '/legal/terms', ['Terms and conditions', 'Términos y condiciones', 'Termos e condições', 'Termeni și condiții', 'Условия обслуживания', 'Умови обслуговування']],
  [2, '/legal/privacy', ['Privacy policy', 'Política de privacidad', 'Política de privacidade', 'Politica de confidențialitate', 'Политика конфиденциальности', 'Політика конфіденційності']],
  [3, '/legal/fees', ['Schedule of fees', 'Tarifas y comisiones', 'Tabela de comissões', 'Lista de comisioane', 'Тарифы и комиссии', 'Тарифи та комісії']],
];

/**
 * Ranges in euros (whole units): fromEur inclusive, toEur exclusive, null = no upper bound.
 * Names spell the range with each language's digit grouping.
 */
const deposits: readonly (readonly [number, number, number | null, NameTuple])[] = [
  [1, 0, 1_000, ['Up to 1,000 EUR', 'Hasta 1.000 EUR', 'Até 1000 EUR', 'Până la 1.000 EUR', 'До 1 000 EUR', 'До 1 000 EUR']],
  [2, 1_000, 5_000, ['1,000 – 5,000 EUR', '1.000 – 5.000 EUR', '1000 – 5000 EUR', '1.000 – 5.000 EUR', '1 000 – 5 000 EUR', '1 000 – 5 000 EUR']],
  [3, 5_000, 10_000, ['5,000 – 10,000 EUR', '5.000 – 10.000 EUR', '5000 – 10 000 EUR', '5.000 – 10.000 EUR', '5 000 – 10 000 EUR', '5 000 – 10 000 EUR']],
  [4, 10_000, 50_000, ['10,000 – 50,000 EUR', '10.000 – 50.000 EUR', '10 000 – 50 000 EUR', '10.000 – 50.000 EUR', '10 000 – 50 000 EUR', '10 000 – 50 000 EUR']],
  [5, 50_000, 100_000, ['50,000 – 100,000 EUR', '50.000 – 100.000 EUR', '50 000 – 100 000 EUR', '50.000 – 100.000 EUR', '50 000 – 100 000 EUR', '50 000 – 100 000 EUR']],
  [6, 100_000, null, ['More than 100,000 EUR', 'Más de 100.000 EUR', 'Mais de 100 000 EUR', 'Peste 100.000 EUR', 'Более 100 000 EUR', 'Понад 100 000 EUR']],
];

export function personalOnboardingRows(): DictionaryRow[] {
  return [
    ...agreements.map(([id, url, tuple], index) => ({
      dictionary: DictionaryKey.personalAgreements,
      itemKey: String(id),
      sortOrder: (index + 1) * 10,
      parentKey: null,
      data: { url },
      names: fromTuple(tuple),
    })),
    ...deposits.map(([id, fromEur, toEur, tuple], index) => ({
      dictionary: DictionaryKey.estimatedMonthlyDeposits,
      itemKey: String(id),
      sortOrder: (index + 1) * 10,
      parentKey: null,
      data: { fromEur, toEur, currency: 'EUR' },
      names: fromTuple(tuple),
    })),
  ];
}
