/** Named methods of the security settings: loginHistory (customer) and ipInfo (public). */
import { count, desc, eq } from 'drizzle-orm';
import { LOGIN_HISTORY_PAGE_SIZE, type securityMethods } from '../../../api/security.ts';
import { lookupIpInfo, privacyCheckPasses } from '../../adapters/ip-info.ts';
import { loginHistory } from '../auth/auth.tables.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';

export const securityHandlers: HandlerTable<typeof securityMethods> = {
  /** The signed-in user's own sign-ins, newest first (never another user's, whoever it acts for). */
  async loginHistory(input, ctx) {
    if (!ctx.caller) throw new MethodFailure('AU', 'Sign-in required');
    const userId = ctx.caller.userId;
    const page = input.pageNumber;
    const [rows, [total]] = await Promise.all([
      ctx.db
        .select()
        .from(loginHistory)
        .where(eq(loginHistory.userId, userId))
        .orderBy(desc(loginHistory.at), desc(loginHistory.id))
        .limit(LOGIN_HISTORY_PAGE_SIZE)
        .offset((page - 1) * LOGIN_HISTORY_PAGE_SIZE),
      ctx.db.select({ n: count() }).from(loginHistory).where(eq(loginHistory.userId, userId)),
    ]);
    return {
      items: rows.map((r) => ({
        date: r.at.toISOString(),
        ip: r.ip,
        countryCode: r.countryCode,
        userAgent: r.userAgent,
        authFlow: r.authFlow,
        result: r.result,
      })),
      pageNumber: page,
      pageSize: LOGIN_HISTORY_PAGE_SIZE,
      total: total?.n ?? 0,
    };
  },

  /** Document 1 §3 client IP info and §5 privacy check, for the caller's own address. */
  async ipInfo(_input, ctx) {
    const info = await lookupIpInfo(ctx.db, ctx.ip);
    return { ip: info.ip, country_code: info.country_code, privacy: info.privacy, allowed: privacyCheckPasses(info) };
  },
};
