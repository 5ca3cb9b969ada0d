/**
 * Where a user lands after sign-in (document 1 §2 "Post-login start page decision (in order)" and
 * "After access info is loaded"; document 3 §2). Pure predicates, one per rule, used by the
 * start-page machine's guards in the same order; `decideStart` and `decideAfterAccess` apply them
 * first-match-wins and are what the table test checks.
 */
import type { Customer } from '../../api/customer.ts';
import type { AccessInfo } from '../session/session.machine.ts';

export type StartCustomer = Pick<
  Customer,
  | 'customerType'
  | 'isAdmin'
  | 'isHaveRelatedAccounts'
  | 'useOldWeb'
  | 'oldWebUrl'
  | 'isNeedPersonalInfoUpdate'
  | 'isNeedKyc'
  | 'isTaxSectionActionRequired'
>;

export interface StartFacts {
  customer: StartCustomer;
  /** a custom customer id (acting for a company, e.g. the fromCustomerId query) is set */
  hasCustomCustomerId: boolean;
  rememberedPath: string | null;
}

export type StartAccessInfo = Pick<
  AccessInfo,
  'isNeedKyc' | 'businessRepresentativePositionIds' | 'accessList' | 'taxResidencySelfCertificationDocumentStatus'
>;

export interface AccessFacts {
  accessInfo: StartAccessInfo;
  rememberedPath: string | null;
}

/** Position ids of business representatives: 2 director, 6 and 9 shareholder, 8 owner. */
export const REPRESENTATIVE_POSITION_IDS: readonly number[] = [2, 6, 8, 9];

const isBusiness = (c: StartCustomer) => c.customerType !== 'personal';

/** The rules of the first decision, in order; the last one always applies. */
export const startRules = {
  /** 1. legacy web, unless a custom customer id is set */
  usesLegacyWeb: (f: StartFacts) => f.customer.useOldWeb && !!f.customer.oldWebUrl && !f.hasCustomCustomerId,
  /** 2. administrators go to the admin overview */
  isAdministrator: (f: StartFacts) => f.customer.isAdmin,
  /** 3. business user without related accounts: the authorised-user info is fetched */
  isBusinessWithoutRelatedAccounts: (f: StartFacts) => isBusiness(f.customer) && !f.customer.isHaveRelatedAccounts,
  /** 4. business user with related accounts: the account chooser */
  isBusinessWithRelatedAccounts: (f: StartFacts) => isBusiness(f.customer) && f.customer.isHaveRelatedAccounts,
  /** 5. profile update */
  needsPersonalInfoUpdate: (f: StartFacts) => f.customer.isNeedPersonalInfoUpdate,
  /** 6. KYC */
  needsKyc: (f: StartFacts) => f.customer.isNeedKyc,
  /** 7. FATCA/CRS section action: self-certification splash */
  needsTaxSectionAction: (f: StartFacts) => f.customer.isTaxSectionActionRequired,
  /** 8. a remembered initial path, used once */
  hasRememberedPath: (f: StartFacts) => f.rememberedPath !== null,
  /** 9. home */
  otherwise: (_f: StartFacts) => true,
} as const;

export type StartRuleId = keyof typeof startRules;
export const startRuleOrder = Object.keys(startRules) as StartRuleId[];

export function decideStart(f: StartFacts): StartRuleId {
  for (const id of startRuleOrder) if (startRules[id](f)) return id;
  return 'otherwise';
}

/** The rules once the access info of the company is loaded, in order. */
export const accessRules = {
  accessNeedsKyc: (f: AccessFacts) => f.accessInfo.isNeedKyc,
  isRepresentativeWithoutBalanceInfo: (f: AccessFacts) =>
    f.accessInfo.businessRepresentativePositionIds.some((id) => REPRESENTATIVE_POSITION_IDS.includes(id)) &&
    !f.accessInfo.accessList.balanceInfo,
  hasRememberedPath: (f: AccessFacts) => f.rememberedPath !== null,
  selfCertificationValidatedOrPending: (f: AccessFacts) =>
    f.accessInfo.taxResidencySelfCertificationDocumentStatus === 'validated' ||
    f.accessInfo.taxResidencySelfCertificationDocumentStatus === 'pending',
  otherwise: (_f: AccessFacts) => true,
} as const;

export type AccessRuleId = keyof typeof accessRules;
export const accessRuleOrder = Object.keys(accessRules) as AccessRuleId[];

export function decideAfterAccess(f: AccessFacts): AccessRuleId {
  for (const id of accessRuleOrder) if (accessRules[id](f)) return id;
  return 'otherwise';
}
