/**
 * Who may see and decide a company's waiting payments (maker-checker, api/business-approvals.ts),
 * on its own without imports: the main layout's navigation reads it on every page.
 * The platform's rule (server/modules/transfers/business-approvals.service.ts requireChecker): the
 * company's owner acting for it as their own customer, or a user whose right for it is 2 (full).
 */
export function mayDecideBusinessPayments(who: { userType: number; actingForOther: boolean; accessRights: number | null }): boolean {
  return who.actingForOther ? who.accessRights === 2 : who.userType === 2;
}
