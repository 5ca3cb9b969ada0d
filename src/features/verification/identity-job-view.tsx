/**
 * The identity-verification job pages of the external layout (document 1 §2):
 * /identity-verification/{workflowRunId}/{token} and /video-identity-job/{id}.
 *
 * The platform's built-in provider is the administrator's review queue (server/adapters/
 * identity-verification.ts): there is no camera session to run here, so the pages show the job's
 * state (waiting for review, approved, rejected with the reason, expired) and what to do next.
 * Not shown in the spec; decided: an identity job is the customer's promise to upload an identity
 * document, which the administrator reviews, so a pending job points to the profile's identity
 * section; a rejected or expired one says to start again there. The video page needs sign-in (the
 * platform answers a customer's own video jobs only); signed out, it offers the sign-in.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { JobReadError, identityJobQuery, isJobId, isJobToken, videoJobQuery, type JobAccess, type JobState } from './identity-jobs.ts';

export function IdentityVerificationJobView({ workflowRunId, token, signedIn }: { workflowRunId: string; token: string; signedIn: boolean }) {
  const { t } = useLingui();
  const valid = isJobId(workflowRunId) && isJobToken(token);
  const query = useQuery({ ...identityJobQuery(workflowRunId, token), enabled: valid });
  return (
    <>
      <StepHeading>{t`Identity verification`}</StepHeading>
      {!valid ? <NotFound /> : <JobAnswer query={query} signedIn={signedIn} />}
    </>
  );
}

export function VideoIdentityJobView({ id, access }: { id: string; access: JobAccess | null }) {
  const { t } = useLingui();
  const valid = isJobId(id);
  const query = useQuery({ ...videoJobQuery(id, access ?? noAccess), enabled: valid && access !== null });
  return (
    <>
      <StepHeading>{t`Video identification`}</StepHeading>
      {!valid ? <NotFound /> : access === null ? <SignInFirst /> : <JobAnswer query={query} signedIn />}
    </>
  );
}

const noAccess: JobAccess = { getAccessToken: () => null, refresh: async () => false, getActingCustomerId: () => null };

function JobAnswer({ query, signedIn }: { query: ReturnType<typeof useQuery<JobState>>; signedIn: boolean }) {
  const { t } = useLingui();
  if (query.isPending) return <Spinner label={t`Loading the verification`} />;
  if (query.isError) {
    const failure = query.error instanceof JobReadError ? query.error.result : null;
    if (failure?.code === 'notFound') return <NotFound />;
    if (failure?.code === 'signIn') return <SignInFirst />;
    return (
      <Alert tone="error" title={t`The verification could not be loaded`}>
        <p>{failure?.code === 'refused' && failure.detail ? failure.detail : t`Network error. Check your connection and try again.`}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t`Try again`}
        </Button>
      </Alert>
    );
  }
  return <JobStatus job={query.data} signedIn={signedIn} />;
}

function JobStatus({ job, signedIn }: { job: JobState; signedIn: boolean }) {
  const { t } = useLingui();
  const tag = getUiLanguageTag();
  const next = signedIn ? (
    <p>
      <Link to="/profile" hash="identity">
        {t`Go to your profile`}
      </Link>
    </p>
  ) : (
    <p>
      <Link to="/login">{t`Sign in to continue`}</Link>
    </p>
  );
  const facts = (
    <dl className="facts">
      <dt>{t`Started`}</dt>
      <dd>{formatDateTime(job.created, tag)}</dd>
      {job.status === 'pending' ? (
        <>
          <dt>{t`This link works until`}</dt>
          <dd>{formatDateTime(job.expires, tag)}</dd>
        </>
      ) : null}
      {job.decided ? (
        <>
          <dt>{t`Decided`}</dt>
          <dd>{formatDateTime(job.decided, tag)}</dd>
        </>
      ) : null}
    </dl>
  );
  switch (job.status) {
    case 'pending':
      return (
        <>
          <Alert tone="info" title={t`Waiting for review`}>
            <p>
              {job.kind === 'video'
                ? t`Our team reviews your identification. You do not need to do anything now; we will let you know the result.`
                : t`Our team reviews your identity. If you have not uploaded your identity document yet, upload it in your profile.`}
            </p>
          </Alert>
          {facts}
          {next}
        </>
      );
    case 'approved':
      return (
        <>
          <Alert tone="success" title={t`Approved`}>
            <p>{t`Your identity is confirmed. Nothing more is needed.`}</p>
          </Alert>
          {facts}
          {signedIn ? (
            <p>
              <Link to="/home">{t`Go to the home page`}</Link>
            </p>
          ) : (
            next
          )}
        </>
      );
    case 'rejected':
      return (
        <>
          <Alert tone="warning" title={t`Not approved`}>
            {job.rejectReason ? <p>{t`Reason: ${job.rejectReason}`}</p> : null}
            <p>{t`Start a new verification from your profile.`}</p>
          </Alert>
          {facts}
          {next}
        </>
      );
    case 'expired':
      return (
        <>
          <Alert tone="warning" title={t`This link has expired`}>
            <p>{t`Start a new verification from your profile.`}</p>
          </Alert>
          {facts}
          {next}
        </>
      );
  }
}

function NotFound() {
  const { t } = useLingui();
  return (
    <Alert tone="error" title={t`This verification was not found`}>
      <p>{t`Check the link, or start a new verification from your profile.`}</p>
    </Alert>
  );
}

function SignInFirst() {
  const { t } = useLingui();
  return (
    <>
      <p>{t`Sign in to see the state of your video identification.`}</p>
      <p>
        <Link to="/login">{t`Sign in`}</Link>
      </p>
    </>
  );
}
