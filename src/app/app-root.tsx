/** The providers around the router; main.tsx and the UI tests render the same tree. */
import { useEffect, useSyncExternalStore } from 'react';
import { I18nProvider } from '@lingui/react';
import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { i18n } from '../lib/i18n.ts';
import { loadedAppQueryClient, subscribeAppQueryClient } from './app-query-client.ts';
import type { createAppRouter } from './router.ts';

/**
 * The query client is provided as soon as it exists: the app's is loaded by the first route that
 * needs it (app-query-client.ts), before that route renders. The provider element stays the same
 * while its value changes, so nothing below it remounts (QueryClientProvider's own mount and
 * unmount calls are made here).
 */
export function AppRoot({ router, queryClient }: { router: ReturnType<typeof createAppRouter>; queryClient?: QueryClient }) {
  const loaded = useSyncExternalStore(subscribeAppQueryClient, loadedAppQueryClient, loadedAppQueryClient);
  const client = queryClient ?? loaded ?? undefined;
  useEffect(() => {
    if (!client) return;
    client.mount();
    return () => client.unmount();
  }, [client]);
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientContext.Provider value={client}>
        <RouterProvider router={router} />
      </QueryClientContext.Provider>
    </I18nProvider>
  );
}
