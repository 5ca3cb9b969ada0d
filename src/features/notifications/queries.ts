/**
 * The notifications' reads (api/notifications.ts) as TanStack Query options: the bell's count, the
 * centre's pages, the announcements and the settings. Keyed by the acting customer (the centre and
 * the audience are the company's); a push (CustomerNotification) and every change here invalidate
 * notificationsQueryKey, so the bell and the lists read again.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request-later.ts';

export const notificationsQueryKey = ['notifications'] as const;

/** The bell: how often it reads again on its own while nothing is pushed (a socket can be down). */
export const COUNT_REFRESH_MS = 60_000;

export const notificationsCountQuery = (acting: number | null) =>
  queryOptions({
    queryKey: [...notificationsQueryKey, 'count', acting],
    queryFn: () => callMethodOrThrow('notificationsCount', {}),
    refetchInterval: COUNT_REFRESH_MS,
  });

export const notificationsListQuery = (acting: number | null, page: number) =>
  queryOptions({
    queryKey: [...notificationsQueryKey, 'list', acting, page],
    queryFn: () => callMethodOrThrow('notificationsList', { pageNumber: page }),
  });

export const announcementsQuery = (acting: number | null) =>
  queryOptions({
    queryKey: [...notificationsQueryKey, 'announcements', acting],
    queryFn: () => callMethodOrThrow('announcementsList', {}),
  });

export const notificationSettingsQuery = () =>
  queryOptions({
    queryKey: [...notificationsQueryKey, 'settings'],
    queryFn: () => callMethodOrThrow('notificationSettingsGet', {}),
  });

export function invalidateNotifications(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [...notificationsQueryKey] });
}
