import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../../machines/session/session.select.ts';
import { BusinessApprovalsPage } from '../../../../features/business-approvals/business-approvals-view.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/** /transfer/approved (document 2 §2, §4 Business approvals): the company's payments waiting for a checker. */
export const Route = createFileRoute('/_guarded/_main/transfer/approved')({
  beforeLoad: () => ensureAppCatalog(),
  component: BusinessApprovalsRoute,
});

function BusinessApprovalsRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  return <BusinessApprovalsPage actingCustomerId={acting} />;
}
