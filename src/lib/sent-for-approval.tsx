/**
 * A payment a company's user with right 3 (initiate) made waits for the company's checker
 * (maker-checker, api/business-approvals.ts; document 2 §4: a user with right 3 gets another title):
 * the one title and note every done screen shows then (a transfer, a mass batch, a global-pay batch,
 * a card order). Only an initiator sees it, and an initiator cannot open /transfer/approved (it
 * answers 13), so the note links to the history, where the payment shows as pending until decided
 * (the initiator is notified of the decision). In src/lib: four features show it.
 */
import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert } from '../ui/alert.tsx';

/** Where the initiator follows the payment until it is decided. */
export const PENDING_PAYMENTS_PATH = '/history';

/** The done screen's title when the result waits for a checker. */
export function useSentForApprovalTitle(): string {
  const { t } = useLingui();
  return t`Sent for approval`;
}

/** A link to the history: the route passes the router's Link. */
export type PendingPaymentsLink = (props: { to: typeof PENDING_PAYMENTS_PATH; children: ReactNode }) => ReactNode;

/**
 * The note under that title. `link` renders the link to the history (the route passes the
 * router's Link; a plain anchor without one).
 */
export function SentForApprovalNote({ link }: { link?: PendingPaymentsLink | undefined }) {
  const { t } = useLingui();
  const label = t`transaction history`;
  const page = link ? link({ to: PENDING_PAYMENTS_PATH, children: label }) : <a href={PENDING_PAYMENTS_PATH}>{label}</a>;
  return (
    <Alert tone="info">
      <p>{t`It waits for an approval by a user of the company with full rights: the money has not gone yet. It is held on the account until it is approved, declined or expires.`}</p>
      <p>
        <Trans>Until then it shows as pending in your {page}, and we let you know when it is decided.</Trans>
      </p>
    </Alert>
  );
}
