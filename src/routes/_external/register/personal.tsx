/** /register/personal: personal registration (guarded by register.tsx). */
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { activeVariant } from '../../../../variants/index.ts';
import { countriesQuery } from '../../../features/registration/queries.ts';
import { ensureQueryClient } from '../../../app/app-query-client.ts';
import { PersonalRegistrationPage } from '../../../features/registration/registration-view.tsx';

export const Route = createFileRoute('/_external/register/personal')({
  // the countries are read through the query client (app-query-client.ts)
  beforeLoad: ({ context }) => ensureQueryClient(context),
  component: PersonalRegistrationRoute,
});

function PersonalRegistrationRoute() {
  const { i18n } = useLingui();
  const countries = useQuery(countriesQuery(i18n.locale));
  return (
    <PersonalRegistrationPage
      personalTypes={activeVariant.registration.personalTypes}
      countries={countries.data ?? []}
      termsUrl={activeVariant.links.termsUrl}
      privacyUrl={activeVariant.links.privacyUrl}
    />
  );
}
