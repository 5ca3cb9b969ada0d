/**
 * Reads of the card confirmation page (/confirm-card/{cardId}, document 2 §7 "Card confirm
 * requirements"): what a card waiting for the customer's confirmation (status 23) still needs. The
 * acting-for customer id is part of the key.
 */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';

export const confirmRequirementsQuery = (actingCustomerId: number | null, accountId: number) =>
  queryOptions({
    queryKey: ['cardConfirmRequirements', actingCustomerId, accountId],
    queryFn: () => callMethodOrThrow('cardConfirmRequirements', { accountId }),
  });
