/**
 * The verification status banner (document 1 §4 "Status banner"): a warning for limited, duplicate
 * documents, unverified, hasRequiredActions and someCardDocumentRequired, with an action counter
 * and a link to /profile or /limited-account. Hidden on login-type routes and the SCP enable route
 * (bannerHiddenOn), before the first answer ("before documents have loaded"), and for the statuses
 * without a warning. Reads through verification-status.select.ts; sends events only.
 *
 * role=status (polite): the banner is standing information, present on every page; it must not
 * interrupt like an alert each time a page opens. Only a failed load is an alert (with a retry).
 * Its link is the router's Link: the app stays loaded (no full page reload), and it is a real
 * anchor, so Tab reaches it and Enter follows it.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Plural, useLingui } from '@lingui/react/macro';
import type { VerificationStatusMachine } from '../../../machines/verification-status/verification-status.machine.ts';
import { selectVerificationStatusView } from '../../../machines/verification-status/verification-status.select.ts';
import { Button } from '../../ui/button.tsx';
import { bannerHiddenOn } from './banner-routes.ts';
import { useBannerMessages } from './messages.ts';

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
    <div className="alert alert-warning verification-banner" role="status" aria-busy={view.refreshing || undefined}>
      <p>{messages[banner.status]}</p>
      {count > 0 ? (
        <p className="verification-banner-count">
          <Plural value={count} one="# action required" other="# actions required" />
        </p>
      ) : null}
      <Link to={banner.link}>{banner.link === '/limited-account' ? t`See what is needed` : t`Go to your profile`}</Link>
    </div>
  );
}
