/** Reads of the open-account page; the acting-for customer id is part of every key. */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request-later.ts';

export { accountsQuery } from '../../lib/accounts-query.ts';

/** The acting user's money flags (crypto wallets need funding.digital). */
export const moneyPermissionsQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: ['moneyPermissions', actingCustomerId],
    queryFn: () => callMethodOrThrow('moneyPermissions', {}),
    select: (answer) => answer.permissions,
  });
