/**
 * Who may act on contracts (create, sign, cancel, terminate): the customer for themselves, or a
 * user with full rights (2) for the company they act for; a view-only user reads only. The
 * platform decides the same (api/contracts.ts contractActions' `mayAct`) and answers 403 otherwise.
 */
export function mayActOnContracts(who: { actingForOther: boolean; accessRights: number | null }): boolean {
  return who.actingForOther ? who.accessRights === 2 : true;
}

/** A link into this app (a path, or a full URL on this origin) as its path; null for another site. */
export function appPathOf(url: string, origin: string): string | null {
  if (/^\/(?![/\\])/.test(url)) return url;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : null;
  } catch {
    return null;
  }
}
