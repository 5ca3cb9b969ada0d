import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { MethodCall } from '../../../features/tax/personal-actors.ts';
import { PersonalCertificationFlow } from '../../../features/tax/personal-certification-view.tsx';
import { profileQueryKey } from '../../../features/profile/queries.ts';
import { verificationQueryKey } from '../../../features/verification/queries.ts';
import { ensureAppCatalog } from '../../../lib/i18n.ts';
import { callMethod, isFailure } from '../../../lib/request.ts';

/** The calls that change the tax states: the banner and the profile's tax section read them again after each. */
const CHANGING: ReadonlySet<string> = new Set(['personalFatcaCrsCertificationUpdate', 'personalLossOfNationalityCertificateUpload']);

/**
 * /self-certification (document 3 §2: personal self-certification; "loads documents and birth
 * countries": the certification answer carries its documents, the view reads the birth countries).
 * Signing leaves the app for the signing page (the answer's first sign URL), which comes back here.
 */
export const Route = createFileRoute('/_guarded/_main/self-certification')({
  beforeLoad: () => ensureAppCatalog(),
  component: SelfCertificationRoute,
});

function SelfCertificationRoute() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const call = useMemo<MethodCall>(
    () => async (name, payload, options) => {
      const answer = await callMethod(name, payload, options);
      if (CHANGING.has(name) && !isFailure(answer)) {
        void queryClient.invalidateQueries({ queryKey: verificationQueryKey });
        void queryClient.invalidateQueries({ queryKey: profileQueryKey });
      }
      return answer;
    },
    [queryClient],
  );
  return (
    <PersonalCertificationFlow
      call={call}
      today={new Date().toISOString().slice(0, 10)}
      onSign={(url) => window.location.assign(url)}
      exit={
        <Link to="/home" className="btn btn-link">
          {t`Go to my accounts`}
        </Link>
      }
    />
  );
}
