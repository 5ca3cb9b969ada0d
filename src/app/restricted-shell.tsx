/**
 * The frame of signed-in pages outside the main layout (the restricted layout, /kyc,
 * /company-documents): the brand, the language and sign-out, no navigation; the customer's saved
 * language applies.
 */
import type { ReactNode } from 'react';
import { activeVariant } from '../../variants/index.ts';
import { useSessionCustomer, type SessionActor } from '../features/auth/session-actor.ts';
import { LanguageSwitcher } from './language-switcher.tsx';
import { SignOutButton, useSavedLanguage } from './session-controls.tsx';
import { SiteFooter } from './site-footer.tsx';

export function RestrictedShell({ session, children }: { session: SessionActor; children: ReactNode }) {
  useSavedLanguage(useSessionCustomer(session));
  return (
    <div className="external-shell">
      <header className="app-header">
        <span className="app-brand">{activeVariant.projectName}</span>
        <div className="app-user">
          <LanguageSwitcher signedIn />
          <SignOutButton session={session} />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="app-main restricted-main">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
