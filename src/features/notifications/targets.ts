/**
 * Where a notification leads (document 3 §2: document and username problems to profile, a partial
 * batch to the batch, smart-contract events to the contract; ours: a ticket to its conversation,
 * news to /news), and which cached reads it makes stale (document 3 §4: notifications trigger data
 * refreshes). Paths as hrefs: the pages belong to other features.
 */
import type { NotificationTarget } from '../../../api/push.ts';

type Params = Record<string, string | number | null> | undefined;

export function targetHref(target: NotificationTarget | null | undefined, params?: Params): string | null {
  if (!target) return null;
  switch (target.kind) {
    case 'profile':
      return '/profile';
    case 'batch':
      // a global-pay batch's id is of its own sequence (the batches page's kind=global)
      return `/history/batch-transfers?id=${target.batchId}${params?.batchKind === 'global' ? '&kind=global' : ''}`;
    case 'contract':
      return `/revenue-split/${target.contractId}`;
    case 'ticket':
      return `/messages?ticketNumber=${encodeURIComponent(target.ticketNumber)}`;
    case 'news':
      return '/news';
  }
}

/** The first segments of the query keys a target's page reads (features' own keys, by name). */
export function staleKeysOf(target: NotificationTarget | null | undefined): string[] {
  switch (target?.kind) {
    case 'profile':
      return ['profile', 'verification'];
    case 'batch':
      return ['batchTransferList', 'batchFileView', 'balanceInquiry', 'transactionHistory'];
    case 'contract':
      return ['contracts'];
    case 'ticket':
      return ['support'];
    case 'news':
    case undefined:
      return [];
  }
}
