/**
 * /unverified-account (document 1 §2, main layout): what is missing before the account is
 * verified, as a checklist of the required actions of document 1 §4 (api/verification.ts
 * requiredActions) with a link to the profile section where each is done, the limit documents
 * still to send (a link to /limited-account), and the status in words while the customer waits.
 * "Redirects home if the user is verified": the route checks the session's customer before it
 * loads; this view checks the fresh answer too (the administrator may have verified the customer
 * since sign-in) and calls `onVerified`.
 */
import { requiredActionLink } from './action-links.ts';
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { missingLimitDocuments, requiredActions, verificationStatus } from '../../../api/verification.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { verificationStatusQuery } from './queries.ts';
import { useRequiredActionTexts, useStatusTexts } from './status-messages.ts';

export interface UnverifiedAccountViewProps {
  actingCustomerId: number | null;
  /** the fresh answer says the customer is verified: leave the page */
  onVerified(): void;
}

export function UnverifiedAccountView({ actingCustomerId, onVerified }: UnverifiedAccountViewProps) {
  const { t } = useLingui();
  const query = useQuery(verificationStatusQuery(actingCustomerId));
  const actionTexts = useRequiredActionTexts();
  const statusTexts = useStatusTexts();
  const verified = query.data?.userStatus.verified === true;

  useEffect(() => {
    if (verified) onVerified();
  }, [verified]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <>
      <StepHeading>{t`Verify your account`}</StepHeading>
      {query.isPending ? (
        <Spinner label={t`Loading your verification status`} />
      ) : query.isError ? (
        <Alert tone="error" title={t`Your verification status could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : verified ? null : (
        <Checklist inputs={query.data.userStatus} actionTexts={actionTexts} statusText={statusTexts[verificationStatus(query.data.userStatus)]} />
      )}
    </>
  );
}

function Checklist({
  inputs,
  actionTexts,
  statusText,
}: {
  inputs: Parameters<typeof requiredActions>[0];
  actionTexts: ReturnType<typeof useRequiredActionTexts>;
  statusText: string;
}) {
  const { t } = useLingui();
  const actions = requiredActions(inputs);
  const limitDocuments = missingLimitDocuments(inputs);
  const nothingMissing = actions.length === 0 && limitDocuments.length === 0;
  return (
    <>
      <p>{statusText}</p>
      {nothingMissing ? (
        <p>{t`Nothing is missing from you now. We will let you know when your account is verified.`}</p>
      ) : (
        <section aria-labelledby="unverified-missing">
          <h2 id="unverified-missing">{t`What is missing`}</h2>
          <ul className="checklist">
            {actions.map((action) => (
              <li key={action.id}>
                {/* each profile section has the section's id as its element id (api/verification.ts PROFILE_SECTIONS); the tax section is done at /self-certification */}
                <Link {...requiredActionLink(action)}>
                  {actionTexts[action.id]}
                </Link>
              </li>
            ))}
            {limitDocuments.length > 0 ? (
              <li>
                <Link to="/limited-account">{t`Send the documents we asked for`}</Link>
              </li>
            ) : null}
          </ul>
        </section>
      )}
    </>
  );
}
