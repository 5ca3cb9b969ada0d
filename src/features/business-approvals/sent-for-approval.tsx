/**
 * A payment a company's user with right 3 (initiate) made waits for the company's checker
 * (maker-checker, api/business-approvals.ts; document 2 §4: a user with right 3 gets another title):
 * the one title and note every done screen shows then (a transfer, a mass batch, a global-pay batch,
 * a card order), with the link to /transfer/approved where the company's checkers decide it.
 */
import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert } from '../../ui/alert.tsx';

/** Where a company's checkers decide the payments waiting for them. */
export const APPROVALS_PATH = '/transfer/approved';

/** The done screen's title when the result waits for a checker. */
export function useSentForApprovalTitle(): string {
  const { t } = useLingui();
  return t`Sent for approval`;
}

/** A link to /transfer/approved: the route passes the router's Link. */
export type ApprovalsLink = (props: { to: typeof APPROVALS_PATH; children: ReactNode }) => ReactNode;

/**
 * The note under that title. `link` renders the link to /transfer/approved (the route passes the
 * router's Link; a plain anchor without one).
 */
export function SentForApprovalNote({ link }: { link?: ApprovalsLink | undefined }) {
  const { t } = useLingui();
  const label = t`Payments to approve`;
  const page = link ? link({ to: APPROVALS_PATH, children: label }) : <a href={APPROVALS_PATH}>{label}</a>;
  return (
    <Alert tone="info">
      <p>{t`It waits for an approval by a user of the company with full rights: the money has not gone yet. It is held on the account until it is approved, declined or expires.`}</p>
      <p>
        <Trans>The company's approvers decide it on the page {page}.</Trans>
      </p>
    </Alert>
  );
}
