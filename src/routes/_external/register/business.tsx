/**
 * /register/business (guarded by register.tsx). The business registration wizard (dictionaries,
 * the saved draft: document 3 §2) is a later issue; until then this page says so and offers
 * what exists: sign-in and personal registration.
 */
import { createFileRoute } from '@tanstack/react-router';
import { activeVariant } from '../../../../variants/index.ts';
import { BusinessRegistrationSoon } from '../../../features/registration/type-chooser-view.tsx';

export const Route = createFileRoute('/_external/register/business')({
  component: () => <BusinessRegistrationSoon supportEmail={activeVariant.support.email} />,
});
