/**
 * /identity-verification/{workflowRunId}/{token} (document 1 §2, external layout): an identity
 * verification job's page, opened from its link without signing in (the token authorises it).
 */
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectIsSignedIn } from '../../../machines/session/session.select.ts';
import { IdentityVerificationJobView } from '../../features/verification/identity-job-view.tsx';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { ensureQueryClient } from '../../app/app-query-client.ts';

export const Route = createFileRoute('/_external/identity-verification/$workflowRunId/$token')({
  beforeLoad: async ({ context }) => (await Promise.all([ensureAppCatalog(), ensureQueryClient(context)]))[1],
  component: IdentityVerificationRoute,
});

function IdentityVerificationRoute() {
  const { workflowRunId, token } = Route.useParams();
  const { session } = Route.useRouteContext();
  const signedIn = useSelector(session, selectIsSignedIn);
  return <IdentityVerificationJobView workflowRunId={workflowRunId} token={token} signedIn={signedIn} />;
}
