/** PLACEHOLDER (being written this session): each method answers UE until implemented. */
import type { historyMethods } from '../../../api/history.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';

const notYet = async (): Promise<never> => {
  throw new MethodFailure('UE', 'Not available yet');
};

export const historyHandlers = Object.fromEntries(['transactionHistory', 'balanceHistory', 'transactionHistoryExport', 'transactionHistoryExportStatus', 'transactionHistoryExportSend', 'transactionHistoryExportList', 'statementPeriods'].map((k) => [k, notYet])) as unknown as HandlerTable<typeof historyMethods>;
