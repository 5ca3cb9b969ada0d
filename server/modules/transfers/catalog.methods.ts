/** PLACEHOLDER (being written this session): permissions, currencies, wallets, rates, payee check, recent transfers, pre-approved payments; each answers UE until implemented. */
import type { transferMethods } from '../../../api/transfers.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';

export type MoneyCatalogHandlersMethods = Pick<typeof transferMethods, 'moneyPermissions' | 'accountAddCurrency' | 'walletCreate' | 'exchangeRate' | 'exchangeRatesDefault' | 'checkPayee' | 'recentTransfers' | 'preapprovedList' | 'preapprovedCancel'>;

const notYet = async (): Promise<never> => {
  throw new MethodFailure('UE', 'Not available yet');
};

export const moneyCatalogHandlers = Object.fromEntries(['moneyPermissions', 'accountAddCurrency', 'walletCreate', 'exchangeRate', 'exchangeRatesDefault', 'checkPayee', 'recentTransfers', 'preapprovedList', 'preapprovedCancel'].map((k) => [k, notYet])) as unknown as HandlerTable<MoneyCatalogHandlersMethods>;
