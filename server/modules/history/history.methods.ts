/** PLACEHOLDER (being written this session): every method answers UE until implemented. */
import type { historyMethods } from '../../../api/history.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';

const notYet = async (): Promise<never> => {
  throw new MethodFailure('UE', 'Not available yet');
};

export const historyHandlers = new Proxy({}, { get: () => notYet }) as unknown as HandlerTable<typeof historyMethods>;
