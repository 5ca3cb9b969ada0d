import { createFileRoute } from '@tanstack/react-router';
import { NotificationSettingsView } from '../../../features/notifications/settings-view.tsx';
import { notificationSettingsQuery } from '../../../features/notifications/queries.ts';

/** /profile/notifications (routes.tsv; document 2 §3, §7): the notification settings by group. */
export const Route = createFileRoute('/_guarded/_main/profile_/notifications')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(notificationSettingsQuery());
  },
  component: NotificationSettingsView,
});
