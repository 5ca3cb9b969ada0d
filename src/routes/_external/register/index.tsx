/** /register: the type chooser (personal or business, per the variant's types). */
import { createFileRoute } from '@tanstack/react-router';
import { activeVariant } from '../../../../variants/index.ts';
import { RegistrationTypeChooser } from '../../../features/registration/type-chooser-view.tsx';

export const Route = createFileRoute('/_external/register/')({
  component: () => (
    <RegistrationTypeChooser personalTypes={activeVariant.registration.personalTypes} businessTypes={activeVariant.registration.businessTypes} />
  ),
});
