/**
 * The profile's tax section (/profile#taxCertification, the required action "tax section"): where
 * the customer's FATCA/CRS self-certification stands, in one sentence, and the way to it. The
 * questions and the signed forms live at /self-certification (issue 18).
 */
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { DocumentState } from '../../../api/verification.ts';
import { callMethodOrThrow } from '../../lib/request.ts';
import { profileQueryKey } from './queries.ts';

export type TaxCertificationStanding = 'notStarted' | 'toSign' | 'refused' | 'inReview' | 'confirmed';

/** One standing from the four states: a refused form first, then anything still to do, then review. */
export function taxCertificationStanding(answer: { updatedAt: string | null; states: readonly DocumentState[] }): TaxCertificationStanding {
  if (answer.updatedAt === null) return 'notStarted';
  if (answer.states.includes('rejected')) return 'refused';
  if (answer.states.includes('none')) return 'toSign';
  if (answer.states.includes('pending')) return 'inReview';
  return 'confirmed';
}

/** The link to /self-certification: the route gives the router's Link; without one (a page mounted alone) a plain anchor. */
export type SelfCertificationLink = (props: { className: string; children: ReactNode }) => ReactNode;
const AnchorLink: SelfCertificationLink = ({ className, children }) => (
  <a href="/self-certification" className={className}>
    {children}
  </a>
);

export function TaxCertificationSummary({ Link = AnchorLink }: { Link?: SelfCertificationLink | undefined }) {
  const { t } = useLingui();
  const query = useQuery({
    queryKey: [...profileQueryKey, 'taxCertification'],
    queryFn: () => callMethodOrThrow('personalFatcaCrsCertificationGet', {}),
    select: (a) => a.certification,
  });
  if (!query.data) return null;
  const c = query.data;
  const standing = taxCertificationStanding({
    updatedAt: c.updatedAt,
    states: [c.w9FormDocumentStatus, c.w8BenFormDocumentStatus, c.taxResidencySelfCertificationDocumentStatus, c.certificateOfLossOfNationalityDocumentStatus],
  });
  const text: Record<TaxCertificationStanding, string> = {
    notStarted: t`You have not completed your tax self-certification yet.`,
    toSign: t`Your tax self-certification has something left to do: a form to sign or a document to upload.`,
    refused: t`One of your tax forms was not accepted. Please review your answers and sign again.`,
    inReview: t`Your signed tax forms are being reviewed.`,
    confirmed: t`Your tax self-certification is complete.`,
  };
  return (
    <div className="tax-certification-summary">
      <p>{text[standing]}</p>
      <Link className={standing === 'notStarted' || standing === 'toSign' || standing === 'refused' ? 'btn btn-primary' : 'btn btn-secondary'}>
        {standing === 'notStarted' ? t`Start your tax self-certification` : t`Open your tax self-certification`}
      </Link>
    </div>
  );
}
