import { useId, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Spinner } from '../../ui/spinner.tsx';

/**
 * One section of /profile: a region landmark named by its heading, with the element id the
 * verification banner's and the unverified-account page's links point at (/profile#phones).
 */
export function ProfileSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section id={id} className="card profile-section" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A read's loading and failure states; the children render once it has data. */
export function Loaded<T>({ query, children }: { query: { data: T | undefined; error: unknown; isPending: boolean }; children(data: T): ReactNode }) {
  const { t } = useLingui();
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error) {
    return (
      <Alert tone="error" title={t`This could not be loaded`}>
        <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
      </Alert>
    );
  }
  return <Spinner label={t`Loading…`} />;
}

/** A change's failure, announced. */
export function ChangeError({ text }: { text: string | null }) {
  const { t } = useLingui();
  if (!text) return null;
  return (
    <Alert tone="error" title={t`The change was not saved`}>
      {text.split('\n').map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </Alert>
  );
}
