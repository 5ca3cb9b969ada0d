/** /activate (document 1 §2): the e-mail and activation code form, prefilled from the query. */
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { ActivationPage } from '../../features/registration/activation-view.tsx';
import { useActivatedNotice } from '../../features/registration/activated-notice.ts';

/** Longer values are not ours (limit on everything). */
const MAX_VALUE_LENGTH = 254;
const text = (value: unknown) => (typeof value === 'string' && value.length <= MAX_VALUE_LENGTH ? value : undefined);

interface ActivateSearch {
  email?: string;
  code?: string;
}

export const Route = createFileRoute('/_external/activate')({
  validateSearch: (search: Record<string, unknown>): ActivateSearch => {
    const email = text(search.email) ?? text(search.user);
    const code = text(search.code);
    return { ...(email ? { email } : {}), ...(code ? { code } : {}) };
  },
  // The words of this screen are in the app catalog part (src/lib/i18n.ts).
  beforeLoad: () => ensureAppCatalog(),
  component: ActivateRoute,
});

function ActivateRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  const notifyActivated = useActivatedNotice();
  return (
    <ActivationPage
      input={{ kind: 'personal', email: search.email ?? '', code: search.code ?? '', fromQuery: false }}
      onFinished={(outcome) => {
        if (outcome === 'activated') notifyActivated();
        void navigate({ to: '/login', replace: true });
      }}
    />
  );
}
