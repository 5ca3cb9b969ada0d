import { createFileRoute, redirect } from '@tanstack/react-router';

/** /company: the company screens default to documents (document 3 §2). */
export const Route = createFileRoute('/_guarded/_main/company/')({
  beforeLoad: () => {
    throw redirect({ to: '/company/$path', params: { path: 'documents' }, replace: true });
  },
});
