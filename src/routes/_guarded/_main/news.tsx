import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import * as v from 'valibot';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { NewsView } from '../../../features/notifications/news-view.tsx';
import { notificationsListQuery, announcementsQuery } from '../../../features/notifications/queries.ts';

const SearchSchema = v.object({
  page: v.optional(v.pipe(v.unknown(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(10_000)), 1),
  id: v.optional(v.pipe(v.unknown(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(2_147_483_647))),
});

/** /news (document 2 §7): the notification centre and the announcements; `id` opens one announcement. */
export const Route = createFileRoute('/_guarded/_main/news')({
  validateSearch: (search): { page: number; id?: number } => {
    const parsed = v.safeParse(SearchSchema, search);
    if (!parsed.success) return { page: 1 };
    return parsed.output.id === undefined ? { page: parsed.output.page } : { page: parsed.output.page, id: parsed.output.id };
  },
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ context, deps }) => {
    const acting = selectActingCustomerId(context.session.getSnapshot());
    void context.queryClient.prefetchQuery(notificationsListQuery(acting, deps.page));
    void context.queryClient.prefetchQuery(announcementsQuery(acting));
  },
  component: NewsRoute,
});

function NewsRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  const { page, id } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <NewsView
      actingCustomerId={acting}
      page={page}
      onPage={(next) => void navigate({ search: (s) => ({ ...s, page: next }) })}
      openId={id ?? null}
      onOpen={(next) => void navigate({ search: (s) => (next === null ? { page: s.page } : { page: s.page, id: next }), replace: true })}
    />
  );
}
