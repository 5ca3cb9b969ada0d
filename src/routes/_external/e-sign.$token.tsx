/**
 * /e-sign/{token} (issue 18 item 3, external layout): the built-in e-signature's signing page,
 * opened from a sign URL (signData.signUrls, document 3 §3) without signing in: the token
 * authorises. A signed-in signer goes back to the envelope's return path once every document is
 * signed; anyone else is told they may close the page.
 */
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import { selectIsSignedIn } from '../../../machines/session/session.select.ts';
import { ESignature } from '../../features/esign/e-signature-view.tsx';
import { ensureAppCatalog } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_external/e-sign/$token')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: ESignRoute,
});

function ESignRoute() {
  const { token } = Route.useParams();
  const { session } = Route.useRouteContext();
  const signedIn = useSelector(session, selectIsSignedIn);
  const navigate = useNavigate();
  const onReturn = useCallback((path: string) => void navigate({ to: path }), [navigate]);
  // keyed by the token: a new link opened in the same tab starts over
  return <ESignature key={token} token={token} signedIn={signedIn} onReturn={onReturn} />;
}
