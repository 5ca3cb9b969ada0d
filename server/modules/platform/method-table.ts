/** Every named-method handler, by name: one table over every module's HandlerTable. */
import type { Methods } from '../../../api/registry.ts';
import { accountHandlers } from '../accounts/accounts.methods.ts';
import { adminHandlers } from '../admin/admin.methods.ts';
import { customerHandlers } from '../customers/customers.methods.ts';
import { dictionaryHandlers, stateHandlers } from '../dictionaries/dictionaries.methods.ts';
import type { HandlerTable } from '../method-types.ts';
import { registrationHandlers } from '../registration/registration.methods.ts';
import { securityHandlers } from '../security/security.methods.ts';
import { recoveryHandlers } from '../recovery/recovery.methods.ts';
import { transferHandlers } from '../transfers/transfers.methods.ts';
import { moneyCatalogHandlers } from '../transfers/catalog.methods.ts';
import { historyHandlers } from '../history/history.methods.ts';
import { documentHandlers } from '../profile/documents.methods.ts';
import { profileHandlers } from '../profile/profile.methods.ts';
import { externalHandlers } from '../external/external.methods.ts';
import { fundingHandlers } from '../rails/funding.methods.ts';
import { payoutHandlers } from '../rails/payout.methods.ts';
import { massHandlers } from '../transfers/mass.methods.ts';
import { globalPayHandlers } from '../transfers/global-pay.methods.ts';
import { cardHandlers } from '../cards/cards.methods.ts';
import { businessHandlers } from '../business/business.methods.ts';
import { businessApprovalHandlers } from '../transfers/business-approvals.methods.ts';
import { taxHandlers } from '../tax/tax.methods.ts';
import { supportHandlers } from '../support/support.methods.ts';
import { notificationHandlers } from '../notifications/notifications.methods.ts';

// `satisfies` makes a method added to the contract without a handler fail compilation.
export const methodTable = {
  ...customerHandlers,
  ...dictionaryHandlers,
  ...stateHandlers,
  ...accountHandlers,
  ...adminHandlers,
  ...securityHandlers,
  ...registrationHandlers,
  ...recoveryHandlers,
  ...transferHandlers,
  ...moneyCatalogHandlers,
  ...historyHandlers,
  ...documentHandlers,
  ...profileHandlers,
  ...externalHandlers,
  ...fundingHandlers,
  ...payoutHandlers,
  ...massHandlers,
  ...globalPayHandlers,
  // the card calls with their authorisation lists (app.ts replaces them with ones on its card issuer)
  ...cardHandlers,
  // a company's structure, people and access (app.ts replaces them with its clock and origin)
  ...businessHandlers,
  // maker-checker approvals (app.ts replaces them with ones on its transfer service and clock)
  ...businessApprovalHandlers,
  // the tax self-certification (app.ts replaces them with its clock and origin)
  ...taxHandlers,
  // the agents' support desk (app.ts replaces them with its clock)
  ...supportHandlers,
  // announcements, the notification centre and settings (app.ts replaces them with its clock)
  ...notificationHandlers,
} satisfies HandlerTable<Methods>;
