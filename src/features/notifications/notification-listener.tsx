/**
 * The CustomerNotification push events of the signed-in layout (document 3 §2, §4, §7): each is a
 * toast for NOTIFICATION_TOAST_MS in the reader's language whose button opens its target (and
 * marks it read), and it makes the bell's count, the centre and the target's page read again
 * ("notifications trigger data refreshes and navigation"). The session's push handler hands the
 * events over through lib/customer-notifications.ts.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { NOTIFICATION_TOAST_MS } from '../../../api/push.ts';
import { onCustomerNotification } from '../../lib/customer-notifications.ts';
import { pushToast } from '../../lib/notify.ts';
import { callMethod } from '../../lib/request-later.ts';
import { notificationText } from './messages.ts';
import { invalidateNotifications } from './queries.ts';
import { staleKeysOf, targetHref } from './targets.ts';

export function NotificationListener() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(
    () =>
      onCustomerNotification((event) => {
        const text = notificationText(i18n, { type: event.notificationType, title: event.title, body: event.body, params: event.params, target: event.target });
        const href = targetHref(event.target, event.params);
        const id = event.id;
        pushToast({
          title: text.title,
          body: text.body,
          tone: 'info',
          timeoutMs: NOTIFICATION_TOAST_MS,
          ...(href
            ? {
                action: {
                  label: t`Open`,
                  onSelect: () => {
                    if (id !== undefined) void callMethod('notificationsRead', { ids: [id] }).then(() => invalidateNotifications(queryClient));
                    void navigate({ href });
                  },
                },
              }
            : {}),
        });
        void invalidateNotifications(queryClient);
        for (const key of staleKeysOf(event.target)) void queryClient.invalidateQueries({ queryKey: [key] });
      }),
    [i18n, t, queryClient, navigate],
  );
  return null;
}
