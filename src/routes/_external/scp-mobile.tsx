/**
 * /scp-mobile (document 1 §2 external layout): the deeplink of POST /auth/scp/request opens here
 * on the phone. It explains what happens and opens the device companion with the same
 * `#link=<id>.<code>` (the hash never reaches the server).
 */
import { createFileRoute } from '@tanstack/react-router';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { ScpMobileView } from '../../features/devices/scp-mobile-view.tsx';

export const Route = createFileRoute('/_external/scp-mobile')({
  // The words of this screen are in the app catalog part (src/lib/i18n.ts).
  beforeLoad: () => ensureAppCatalog(),
  component: () => <ScpMobileView hash={typeof window === 'undefined' ? '' : window.location.hash} />,
});
