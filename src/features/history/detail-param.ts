/**
 * The transaction detail page's URL parameter (/history/$transactionId). History rows carry two
 * kinds of id numbered apart (api/history.ts TransactionKindSchema): a transfer's id, for a
 * booking without a transfer (a deposit, an account fee) a journal entry's id, and for a card payment not
 * posted a card authorisation's id. The parameter says which: `t` and the transfer's id, `e` and the
 * entry's, `a` and the authorisation's (e.g. /history/t123, /history/e456, /history/a7). The spec names no detail route; this one sits
 * under /history, where its rows come from. Kept apart from the view so the route and the links
 * import no more than this.
 */
import type { TransactionKind } from '../../../api/history.ts';
import { isIdText } from '../../../api/method.ts';

export type DetailKind = TransactionKind;

const PREFIX: Readonly<Record<DetailKind, string>> = { transfer: 't', entry: 'e', authorization: 'a' };

/** The parameter of a history row, by the kind of id it carries. */
export function detailParamOf(row: { transactionId: number; kind: DetailKind }): string {
  return `${PREFIX[row.kind]}${row.transactionId}`;
}

/** The kind and id of a parameter, or null when it is not one (the page then says "not found"). */
export function parseDetailParam(param: string): { kind: DetailKind; id: number } | null {
  const match = /^([tea])(\d+)$/.exec(param);
  if (!match?.[2] || !isIdText(match[2])) return null;
  const id = Number(match[2]);
  return { kind: match[1] === 'e' ? 'entry' : match[1] === 'a' ? 'authorization' : 'transfer', id };
}
