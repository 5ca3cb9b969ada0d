/** Every named method, by name. Unknown names answer IM. */
import { accountMethods } from './accounts.ts';
import { adminMethods } from './admin.ts';
import { customerMethods } from './customer.ts';
import { dictionaryMethods, stateMethods } from './dictionaries.ts';
import type { MethodDef } from './method.ts';
import { registrationMethods } from './registration.ts';
import { securityMethods } from './security.ts';
import { recoveryMethods } from './recovery.ts';
import { transferMethods } from './transfers.ts';
import { historyMethods } from './history.ts';
import { documentMethods } from './documents.ts';
import { profileMethods } from './profile.ts';
import { externalMethods } from './external.ts';
import { fundingMethods } from './funding.ts';
import { payoutMethods } from './payouts.ts';
import { massMethods } from './mass.ts';
import { globalPayMethods } from './global-pay.ts';
import { cardMethods } from './cards.ts';
import { businessMethods } from './business.ts';
import { businessApprovalMethods } from './business-approvals.ts';
import { businessRegistrationMethods } from './business-registration.ts';
import { businessDeclarationMethods } from './business-declarations.ts';
import { taxCertificationMethods } from './tax-certification.ts';
import { supportMethods } from './support.ts';
import { notificationMethods } from './notifications.ts';

export const methods = {
  ...customerMethods,
  ...dictionaryMethods,
  ...stateMethods,
  ...accountMethods,
  ...adminMethods,
  ...securityMethods,
  ...registrationMethods,
  ...recoveryMethods,
  ...transferMethods,
  ...historyMethods,
  ...documentMethods,
  ...profileMethods,
  ...externalMethods,
  ...fundingMethods,
  ...payoutMethods,
  ...massMethods,
  ...globalPayMethods,
  ...cardMethods,
  ...businessMethods,
  ...businessApprovalMethods,
  ...businessRegistrationMethods,
  ...businessDeclarationMethods,
  ...taxCertificationMethods,
  ...supportMethods,
  ...notificationMethods,
} satisfies Record<string, MethodDef>;

export type Methods = typeof methods;
export type MethodName = keyof Methods;

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methods, name);
}
