/** Reads of the "Add money" page; the acting-for customer id is part of the key. */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request-later.ts';

export const paymentInstructionsQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: ['paymentInstructions', actingCustomerId],
    queryFn: () => callMethodOrThrow('paymentInstructions', {}),
    select: (answer) => answer.instructions,
  });
