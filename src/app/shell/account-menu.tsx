/**
 * The account menu of the signed-in shell (issue 13): a button with the customer's initials (and
 * name on wide screens) that opens a panel with who is signed in, the company acted for, the
 * language, links to the profile and the settings, and sign-out.
 *
 * A disclosure, not an ARIA menu: the panel holds a select (the language), which a role="menu"
 * may not contain. Escape closes it and gives the focus back to the button; a click outside or a
 * change of page closes it too.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { ChevronDownIcon } from '../../ui/icons.tsx';

/** Up to two initials of a display name ("Anna Lind" -> "AL", "Northwind Trading Ltd" -> "NT"). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0] ?? '');
  return letters.join('').toLocaleUpperCase();
}

export interface AccountMenuProps {
  /** the signed-in customer's display name; null while it loads */
  name: string | null;
  email?: string | null;
  /** the company acted for, when acting for one */
  actingFor?: string | null;
  /** profile and settings links (not in the restricted layouts, which have no such pages) */
  withPages?: boolean;
  /** the language switcher and sign-out, supplied by the layout */
  language: ReactNode;
  signOut: ReactNode;
}

export function AccountMenu({ name, email, actingFor, withPages = true, language, signOut }: AccountMenuProps) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="account-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        id="account-menu-button"
        type="button"
        className="account-menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {/* the initials are drawn from the attribute (CSS), so the button's text is the name alone:
            its accessible name starts with what it shows (WCAG 2.5.3) */}
        <span className="avatar" aria-hidden="true" data-initials={name ? initialsOf(name) : ''} />
        <span className="account-menu-name">{name ?? ''}</span>
        <span className="visually-hidden">{name ? t`, account menu` : t`Account menu`}</span>
        <ChevronDownIcon size={16} className="account-menu-chevron" />
      </button>
      <div id={panelId} className="account-menu-panel" hidden={!open}>
        <div className="account-menu-who">
          <span className="avatar avatar-lg" aria-hidden="true">
            {name ? initialsOf(name) : ''}
          </span>
          <div>
            <p className="account-menu-who-name">{name ?? ''}</p>
            {email ? <p className="account-menu-who-email">{email}</p> : null}
            {actingFor ? <p className="account-menu-who-acting">{t`Acting for ${actingFor}`}</p> : null}
          </div>
        </div>
        {withPages ? (
          <ul className="account-menu-links">
            <li>
              <Link to="/profile">{t`Profile`}</Link>
            </li>
            <li>
              <Link to="/setting">{t`Settings`}</Link>
            </li>
          </ul>
        ) : null}
        <div className="account-menu-language">{language}</div>
        <div className="account-menu-signout">{signOut}</div>
      </div>
    </div>
  );
}
