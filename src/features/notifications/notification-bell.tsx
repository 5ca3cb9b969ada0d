/**
 * The bell in the top bar (document 2 §7 notifications count): the unread notifications of the
 * acting customer and the unread announcements; it opens the notification centre (/news).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { BellIcon } from '../../ui/icons.tsx';
import { notificationsCountQuery } from './queries.ts';

/** More than this shows as "99+". */
const MAX_SHOWN = 99;

export function NotificationBell({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const query = useQuery(notificationsCountQuery(actingCustomerId));
  const count = query.data?.count ?? 0;
  const label = count > 0 ? t`Notifications: ${plural(count, { one: '# unread', other: '# unread' })}` : t`Notifications`;
  return (
    <Link to="/news" search={{ page: 1 }} className="shell-bell" aria-label={label} title={label} activeProps={{ 'aria-current': 'page' }}>
      <BellIcon size={22} />
      {count > 0 ? (
        <span className="shell-bell-count" aria-hidden="true" data-testid="bell-count">
          {count > MAX_SHOWN ? `${MAX_SHOWN}+` : count}
        </span>
      ) : null}
    </Link>
  );
}
