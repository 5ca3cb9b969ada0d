/**
 * Access rights as the company's pages show them (document 3 §3 "Access rights": 0 no access, 1
 * read, 2 full access, 3 initiate, 4 confirmed, 5 uploading; right 5 hidden from the choice) and who
 * may manage the company's users (api/rights.ts 'manage': full rights 2, or the owner acting for
 * their own company).
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { CHOOSABLE_ACCESS_RIGHTS } from '../../../api/business.ts';

export type AccessRightValue = 0 | 1 | 2 | 3 | 4 | 5;

export const rightNames: Record<AccessRightValue, MessageDescriptor> = {
  0: msg`No access`,
  1: msg`Read only`,
  2: msg`Full access`,
  3: msg`Initiate payments`,
  4: msg`Confirmed payments`,
  5: msg`Upload documents`,
};

/** The rights a user may be given on /company-access (5 hidden; 0 takes the access away). */
export const CHANGE_CHOICES: readonly AccessRightValue[] = CHOOSABLE_ACCESS_RIGHTS;
/** The rights an invitation offers (representativeAdd takes 1-5; 5 hidden). */
export const INVITE_CHOICES: readonly AccessRightValue[] = CHOOSABLE_ACCESS_RIGHTS.filter((r) => r !== 0);

/** The platform's 'manage' level: the owner for their own company, or a user with full rights for another. */
export function mayManageCompany(who: { userType: number; actingForOther: boolean; accessRights: number | null }): boolean {
  return who.actingForOther ? who.accessRights === 2 : who.userType === 2;
}
