/**
 * /receive/{paymentId}?s=<secret> (document 2 §2): the payee page of a global payment, reached
 * from the link e-mailed to its beneficiary; no sign-in (the secret is the key to the payment).
 */
import { createFileRoute } from '@tanstack/react-router';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { ReceivePage } from '../../features/global-pay/receive-view.tsx';

/** The secret as api/global-pay.ts takes it; anything else is not ours (the page then says "not found"). */
const SECRET = /^[A-Za-z0-9_-]{16,100}$/;

interface ReceiveSearch {
  s?: string;
}

export const Route = createFileRoute('/_external/receive/$id')({
  validateSearch: (search: Record<string, unknown>): ReceiveSearch => (typeof search.s === 'string' && SECRET.test(search.s) ? { s: search.s } : {}),
  // The words of this screen are in the app catalog part (src/lib/i18n.ts).
  beforeLoad: () => ensureAppCatalog(),
  component: ReceiveRoute,
});

function ReceiveRoute() {
  const { id } = Route.useParams();
  const { s } = Route.useSearch();
  const paymentId = /^\d{1,15}$/.test(id) ? Number(id) : 0;
  // a new link is a new page (its own flow)
  return <ReceivePage key={`${paymentId}:${s ?? ''}`} input={{ paymentId, secret: s ?? '' }} />;
}
