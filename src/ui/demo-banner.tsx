import { useLingui } from '@lingui/react/macro';
import { readDemoMarks } from '../lib/demo-mode.ts';

/**
 * The Demo bar on every page of a platform in demo mode (server/modules/platform/demo-mode.ts):
 * a strip in the page's flow at the very top (it covers nothing, also at 390 px), a labelled
 * landmark screen readers can find and skip, and the link to the development mailbox where the
 * demo's one-time codes and activation links arrive (in a new tab, so a flow in progress stays).
 */
export function DemoBanner() {
  const { t } = useLingui();
  const { demo, mailboxPath } = readDemoMarks();
  if (!demo) return null;
  return (
    <aside className="demo-banner" aria-label={t`Demo`}>
      <p>
        <strong className="demo-banner-tag">{t`Demo`}</strong> <span>{t`Test data only: do not enter real details.`}</span>
        {mailboxPath ? (
          <>
            {' '}
            <a href={mailboxPath} target="_blank" rel="noopener">
              {t`Mail and SMS`} <span className="visually-hidden">{t`(opens in a new tab)`}</span>
            </a>
          </>
        ) : null}
      </p>
    </aside>
  );
}
