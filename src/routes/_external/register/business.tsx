/**
 * /register/business (guarded by register.tsx: registration disabled by the variant goes back to
 * login): the business registration wizard (document 3 §2). The countries are read through the
 * query client; the wizard loads its own dictionaries and the saved draft.
 */
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { activeVariant } from '../../../../variants/index.ts';
import { ensureQueryClient } from '../../../app/app-query-client.ts';
import { businessCountriesQuery } from '../../../features/business-registration/queries.ts';
import { BusinessRegistrationPage } from '../../../features/business-registration/business-registration-view.tsx';

export const Route = createFileRoute('/_external/register/business')({
  beforeLoad: ({ context }) => ensureQueryClient(context),
  component: BusinessRegistrationRoute,
});

function BusinessRegistrationRoute() {
  const { i18n } = useLingui();
  const countries = useQuery(businessCountriesQuery(i18n.locale));
  return <BusinessRegistrationPage hideAdultIndustries={activeVariant.registration.hideAdultIndustries} sourceOfWealth={activeVariant.registration.sourceOfWealth} countries={countries.data ?? []} />;
}
