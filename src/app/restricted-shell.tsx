/**
 * The frame of signed-in pages outside the main layout (the restricted layout, /kyc,
 * /company-documents): the brand and the account menu (language, sign-out), no navigation; the
 * customer's saved language applies.
 */
import type { ReactNode } from 'react';
import { useSessionCustomer, type SessionActor } from '../features/auth/session-actor.ts';
import { customerDisplayName } from '../features/home/display-name.ts';
import { AccountMenu } from './shell/account-menu.tsx';
import { Brand } from './shell/brand.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import { SignOutButton, useSavedLanguage } from './session-controls.tsx';
import { SiteFooter } from './site-footer.tsx';

export function RestrictedShell({ session, children }: { session: SessionActor; children: ReactNode }) {
  const customer = useSessionCustomer(session);
  useSavedLanguage(customer);
  return (
    <div className="shell shell-plain">
      <header className="shell-topbar">
        <Brand home={false} />
        <div className="shell-topbar-end">
          <AccountMenu
            name={customer ? customerDisplayName(customer) : null}
            email={customer?.login ?? null}
            withPages={false}
            language={<LanguageSwitcher signedIn />}
            signOut={<SignOutButton session={session} />}
          />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="shell-main">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
