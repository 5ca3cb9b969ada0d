/**
 * /video-identity-job/{id} (document 1 §2, external layout): a video identity job's page. The
 * platform answers a signed-in customer's own jobs only: signed out, the page offers the sign-in
 * and the path is remembered for after it.
 */
import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectIsSignedIn } from '../../../machines/session/session.select.ts';
import { isSignedIn, rememberPath, sessionRequestHooks } from '../../features/auth/session-actor.ts';
import { VideoIdentityJobView } from '../../features/verification/identity-job-view.tsx';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { ensureQueryClient } from '../../app/app-query-client.ts';

export const Route = createFileRoute('/_external/video-identity-job/$id')({
  beforeLoad: async ({ context, location }) => {
    if (!isSignedIn(context.session)) rememberPath(context.session, location.href);
    return (await Promise.all([ensureAppCatalog(), ensureQueryClient(context)]))[1];
  },
  component: VideoIdentityJobRoute,
});

function VideoIdentityJobRoute() {
  const { id } = Route.useParams();
  const { session } = Route.useRouteContext();
  const signedIn = useSelector(session, selectIsSignedIn);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  return <VideoIdentityJobView id={id} access={signedIn ? access : null} />;
}
