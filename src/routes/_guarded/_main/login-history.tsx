import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { LoginHistoryView } from '../../../features/security/login-history-view.tsx';
import { loginHistoryQuery } from '../../../features/security/queries.ts';

const SearchSchema = v.object({
  page: v.optional(v.pipe(v.unknown(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(10_000)), 1),
});

/** /login-history (document 1 §2): the sign-ins of the signed-in user, 20 a page. */
export const Route = createFileRoute('/_guarded/_main/login-history')({
  validateSearch: (search) => {
    const parsed = v.safeParse(SearchSchema, search);
    return { page: parsed.success ? parsed.output.page : 1 };
  },
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(loginHistoryQuery(deps.page));
  },
  component: LoginHistoryRoute,
});

function LoginHistoryRoute() {
  const { page } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <LoginHistoryView page={page} onPage={(next) => void navigate({ search: { page: next } })} />;
}
