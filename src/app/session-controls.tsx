/** Pieces of the signed-in layouts that act on the session: sign-out and the saved language. */
import { useEffect } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { Customer } from '../../api/customer.ts';
import { activeVariant } from '../../variants/index.ts';
import { logout, type SessionActor } from '../features/auth/session-actor.ts';
import { fromSettingsLanguage, getUiLanguage, setUiLanguage } from '../lib/i18n.ts';
import { Button } from '../ui/button.tsx';
import { LogoutIcon } from '../ui/icons.tsx';

export function SignOutButton({ session }: { session: SessionActor }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <Button
      variant="secondary"
      onClick={async () => {
        await logout(session);
        await navigate({ to: '/login' });
      }}
    >
      <LogoutIcon />
      {t`Sign out`}
    </Button>
  );
}

const APPLIED_KEY = 'savedLanguageApplied';

/**
 * After sign-in the language saved in the customer's settings (`ua` for Ukrainian) becomes the UI
 * language, once per session (when the variant offers it). Later choices in the switcher are saved
 * to the settings as they are made, so applying the setting again on a reload would only undo
 * them: the session storage flag (cleared at logout) prevents that.
 */
export function useSavedLanguage(customer: Customer | null): void {
  useEffect(() => {
    if (!customer || sessionStorage.getItem(APPLIED_KEY) === String(customer.userId)) return;
    sessionStorage.setItem(APPLIED_KEY, String(customer.userId));
    const saved = fromSettingsLanguage(customer.language);
    if (activeVariant.languages.includes(saved) && saved !== getUiLanguage()) void setUiLanguage(saved);
  }, [customer]);
}
