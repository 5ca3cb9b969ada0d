/**
 * The verification status banner (document 1 §4 "Status banner"): a warning for limited, duplicate
 * documents, unverified, hasRequiredActions and someCardDocumentRequired, with an action counter
 * and a link to /profile or /limited-account. Hidden on login-type routes and the SCP enable route
 * (bannerHiddenOn), before the first answer ("before documents have loaded"), and for the statuses
 * without a warning. Reads through verification-status.select.ts; sends events only.
 *
 * role=status (polite): the banner is standing information, present on every page; it must not
 * interrupt like an alert each time a page opens. Only a failed load is an alert (with a retry).
 * Its links are the router's Link: the app stays loaded (no full page reload), and each is a real
 * anchor, so Tab reaches it and Enter follows it.
 *
 * Issue 13: the counted actions are listed by name, each linking to its place (a profile section by
 * its element id, api/verification.ts PROFILE_SECTIONS; the missing limit documents, one line, to
 * /limited-account, which lists them); the general link stays last for what the list does not name.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Plural, useLingui } from '@lingui/react/macro';
import type { BannerAction } from '../../../api/verification.ts';
import type { VerificationStatusMachine } from '../../../machines/verification-status/verification-status.machine.ts';
import { selectVerificationStatusView } from '../../../machines/verification-status/verification-status.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { requiredActionLink } from './action-links.ts';
import { bannerHiddenOn } from './banner-routes.ts';
import { useBannerMessages } from './messages.ts';
import { useRequiredActionTexts } from './status-messages.ts';
import './status-banner.css';

export interface StatusBannerProps {
  actor: ActorRefFrom<VerificationStatusMachine>;
  /** the current route's path */
  pathname: string;
}

export function StatusBanner({ actor, pathname }: StatusBannerProps) {
  const { t } = useLingui();
  const view = useSelector(actor, selectVerificationStatusView);
  const messages = useBannerMessages();
  if (bannerHiddenOn(pathname)) return null;

  if (view.loadFailed) {
    return (
      <div className="alert alert-error verification-banner" role="alert">
        <p>{t`Your verification status could not be loaded.`}</p>
        <Button variant="secondary" onClick={() => actor.send({ type: 'STATUS.RETRY' })}>
          {t`Try again`}
        </Button>
      </div>
    );
  }

  const banner = view.banner;
  if (!banner.visible) return null;
  const count = banner.count;
  return (
    <div className="verification-banner" aria-busy={view.refreshing || undefined}>
      <Alert tone="warning" title={messages[banner.status]}>
        {count > 0 ? (
          <p className="verification-banner-count">
            <Plural value={count} one="# action required" other="# actions required" />
          </p>
        ) : null}
        <ActionLinks actions={view.actions} />
        <p className="verification-banner-more">
          <Link to={banner.link}>{banner.link === '/limited-account' ? t`See what is needed` : t`Go to your profile`}</Link>
        </p>
      </Alert>
    </div>
  );
}

/** Each counted action by name, linked to where it is done; the limit documents as one line. */
function ActionLinks({ actions }: { actions: readonly BannerAction[] }) {
  const { t } = useLingui();
  const texts = useRequiredActionTexts();
  if (actions.length === 0) return null;
  const items: { key: string; to: '/profile' | '/limited-account' | '/self-certification'; hash?: string | undefined; text: string }[] = [];
  for (const action of actions) {
    if (action.id === 'limitDocument') {
      if (!items.some((i) => i.key === 'limitDocuments')) items.push({ key: 'limitDocuments', to: '/limited-account', text: t`Send the documents we asked for` });
    } else if (action.id === 'newIdentityDocument') items.push({ key: action.id, to: '/profile', hash: action.section, text: t`Upload a new identity document` });
    else if (action.id === 'cardAddressDocument') items.push({ key: action.id, to: '/profile', hash: action.section, text: t`Upload one more proof of address` });
    else items.push({ key: action.id, ...requiredActionLink(action), text: texts[action.id] });
  }
  return (
    <ul className="verification-banner-actions">
      {items.map((item) => (
        <li key={item.key}>
          <Link to={item.to} hash={item.hash}>
            {item.text}
          </Link>
        </li>
      ))}
    </ul>
  );
}
