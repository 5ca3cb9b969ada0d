/** PLACEHOLDER (being written this session): fee, max amount, limits, transfer requests and their approval; each answers UE until implemented. */
import type { transferMethods } from '../../../api/transfers.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';

export type TransferHandlersMethods = Pick<typeof transferMethods, 'transferFee' | 'transferMaxAmount' | 'customerLimits' | 'transferBetweenAccounts' | 'transferP2p' | 'transferApprove' | 'transferApprovalResend' | 'transferCancel' | 'transferStatus'>;

const notYet = async (): Promise<never> => {
  throw new MethodFailure('UE', 'Not available yet');
};

export const transferHandlers = Object.fromEntries(['transferFee', 'transferMaxAmount', 'customerLimits', 'transferBetweenAccounts', 'transferP2p', 'transferApprove', 'transferApprovalResend', 'transferCancel', 'transferStatus'].map((k) => [k, notYet])) as unknown as HandlerTable<TransferHandlersMethods>;
