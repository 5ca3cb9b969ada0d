/** /register (the type chooser) and /register/business (until the business wizard exists). */
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PersonalType } from '../../../api/registration.ts';
import { StepHeading } from '../../ui/step-heading.tsx';
import { personalTypeNames } from './registration-view.tsx';

type BusinessType = 'limitedCompany' | 'publicCompany' | 'partnership' | 'soleProprietorship' | 'association' | 'foundation';

const businessTypeNames: Record<BusinessType, MessageDescriptor> = {
  limitedCompany: msg`Limited company`,
  publicCompany: msg`Public company`,
  partnership: msg`Partnership`,
  soleProprietorship: msg`Sole proprietorship`,
  association: msg`Association`,
  foundation: msg`Foundation`,
};

export function RegistrationTypeChooser({ personalTypes, businessTypes }: { personalTypes: readonly PersonalType[]; businessTypes: readonly BusinessType[] }) {
  const { t, i18n } = useLingui();
  return (
    <section aria-labelledby="register-heading" className="registration">
      <StepHeading id="register-heading">{t`Open an account`}</StepHeading>
      <p>{t`Choose the kind of account you want to open.`}</p>
      <ul className="register-types">
        <li>
          <Link to="/register/personal">{t`Personal account`}</Link>
          <p className="field-hint">{personalTypes.map((type) => i18n._(personalTypeNames[type])).join(', ')}</p>
        </li>
        <li>
          <Link to="/register/business">{t`Business account`}</Link>
          <p className="field-hint">{businessTypes.map((type) => i18n._(businessTypeNames[type])).join(', ')}</p>
        </li>
      </ul>
      <p>
        {t`Already have an account?`} <Link to="/login">{t`Sign in`}</Link>
      </p>
    </section>
  );
}
