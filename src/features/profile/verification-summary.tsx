/**
 * The verification status at the top of /profile: the status's short name and the sentence the
 * verification pages use (status-messages.ts useStatusTexts), derived with the document 1 §4 rules
 * (api/verification.ts verificationStatus) from the same userStatusGet query the banner reads
 * (verification/queries.ts verificationStatusQuery), so both refresh together when a change
 * invalidates `verificationQueryKey`.
 *
 * Not shown in the spec: the short names. A bank's profile names the state in a word or two
 * ("Checked", "Final review") and says in a sentence what it means; unlike the banner it is shown
 * for every status, a verified customer included.
 */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { verificationStatus, type VerificationStatus } from '../../../api/verification.ts';
import { verificationStatusQuery } from '../verification/queries.ts';
import { useStatusTexts } from '../verification/status-messages.ts';
import { Loaded } from './section.tsx';

/** The statuses of document 1 §4 in a word or two. */
function useStatusNames(): Record<VerificationStatus, string> {
  const { t } = useLingui();
  return {
    checked: t`Checked`,
    limited: t`Limited`,
    processing: t`Processing`,
    duplicateDocuments: t`Duplicate documents`,
    duplicateDocumentsUploaded: t`Duplicate documents: new document uploaded`,
    hasRequiredActions: t`Action required`,
    unverified: t`Unverified`,
    verificationProcessing: t`Verification processing`,
    finalReview: t`Final review`,
    someCardDocumentRequired: t`Card document required`,
  };
}

export function VerificationSummary({ acting }: { acting: number | null }) {
  const { t } = useLingui();
  const status = useQuery(verificationStatusQuery(acting));
  const names = useStatusNames();
  const texts = useStatusTexts();
  const titleId = useId();
  return (
    <section className="profile-verification" aria-labelledby={titleId}>
      <h2 id={titleId}>{t`Verification status`}</h2>
      <Loaded query={status}>
        {(answer) => {
          const current = verificationStatus(answer.userStatus);
          return (
            <>
              <p className="profile-verification-status">
                <strong>{names[current]}</strong>
              </p>
              <p>{texts[current]}</p>
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
