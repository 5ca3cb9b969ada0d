/**
 * The toast after an activation, apart from the activation view so the pages that only might show
 * it (every external page, through the query actions) do not load the view.
 */
import { useLingui } from '@lingui/react/macro';
import { pushToast } from '../../lib/notify.ts';

export function useActivatedNotice() {
  const { t } = useLingui();
  return () => pushToast({ title: t`Account activated`, body: t`Sign in with your e-mail address and password.`, tone: 'success' });
}
