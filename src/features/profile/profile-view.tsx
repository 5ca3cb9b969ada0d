/**
 * /profile (document 1 §2, §3; issue 5): everything the provider holds about the customer, in
 * sections the verification banner's links point at (/profile#phones, #address, #identity,
 * #proofOfResidence, #videoIdentity, #taxCertification: api/verification.ts PROFILE_SECTIONS): personal data and tax number, phones, e-mail addresses and
 * the username, addresses with their documents, identity and proof of residence, and KYC; above
 * them the verification status (verification-summary.tsx).
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { StepHeading } from '../../ui/step-heading.tsx';
import { AddressesSection } from './addresses-section.tsx';
import { DUE_DILIGENCE_LEVELS, DueDiligenceSection } from './due-diligence-section.tsx';
import { EmailsSection } from './emails-section.tsx';
import { IdentitySection } from './identity-section.tsx';
import { KycSection } from './kyc-section.tsx';
import { PersonalSection } from './personal-section.tsx';
import type { SelfCertificationLink } from './tax-certification-summary.tsx';
import { PhonesSection } from './phones-section.tsx';
import { VerificationSummary } from './verification-summary.tsx';
import { countriesQuery, customerInfoQuery } from './queries.ts';
import './profile.css';

/** Today in UTC (yyyy-mm-dd), as the platform's date rules read it. */
const todayIso = (): string => new Date().toISOString().slice(0, 10);

export interface ProfilePageProps {
  actingCustomerId: number | null;
  /** the element id in the URL's hash (/profile#phones), if any */
  hash: string;
  /** the router's link to /self-certification (the tax section's way there) */
  taxLink?: SelfCertificationLink;
}

export function ProfilePage({ actingCustomerId, hash, taxLink }: ProfilePageProps) {
  const { t, i18n } = useLingui();
  const customer = useQuery(customerInfoQuery(actingCustomerId));
  const countries = useQuery(countriesQuery(i18n.locale));
  const countryList = countries.data ?? [];
  const countryName = (code: string) => countryList.find((c) => c.code === code)?.name ?? code;
  const today = todayIso();
  const ready = customer.data !== undefined;

  // A link to a section (/profile#phones) lands on its heading once the page has its data.
  useEffect(() => {
    if (!ready || !hash) return;
    const target = document.getElementById(hash);
    const heading = target?.matches('h2, h3, dt') ? target : target?.querySelector<HTMLElement>('h2, h3');
    if (heading) {
      heading.scrollIntoView?.({ block: 'start' });
      heading.focus?.();
    }
  }, [ready, hash]);

  const residence = customer.data?.residenceCountryCode ?? null;
  // Due-diligence levels 1 and 4 only (document 1 §4): other levels make no dueDiligenceInfoGet call.
  const dueDiligence = customer.data !== undefined && DUE_DILIGENCE_LEVELS.has(customer.data.dueDiligenceLevel);
  return (
    <div className="profile-page">
      <StepHeading>{t`Profile`}</StepHeading>
      <VerificationSummary acting={actingCustomerId} />
      <nav aria-label={t`Profile sections`}>
        <ul className="profile-toc">
          <li><a href="#personal">{t`Personal data`}</a></li>
          <li><a href="#phones">{t`Phones`}</a></li>
          <li><a href="#emails">{t`E-mail addresses`}</a></li>
          <li><a href="#address">{t`Addresses`}</a></li>
          <li><a href="#identity">{t`Identity and proof of residence`}</a></li>
          <li><a href="#kyc">{t`About you`}</a></li>
          {dueDiligence ? <li><a href="#dueDiligence">{t`Due diligence`}</a></li> : null}
        </ul>
      </nav>
      <PersonalSection acting={actingCustomerId} countryName={countryName} taxLink={taxLink} />
      <PhonesSection acting={actingCustomerId} />
      <EmailsSection acting={actingCustomerId} />
      <AddressesSection acting={actingCustomerId} today={today} residenceCountryCode={residence} countries={countryList} />
      <IdentitySection acting={actingCustomerId} today={today} residenceCountryCode={residence} />
      <KycSection acting={actingCustomerId} />
      {dueDiligence && customer.data ? (
        <DueDiligenceSection acting={actingCustomerId} today={today} residenceCountryCode={residence} customerType={customer.data.customerType} />
      ) : null}
    </div>
  );
}
