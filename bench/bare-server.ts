/**
 * The references of the getCustomerInfo benchmark (bench/run.ts part b), in one Fastify process:
 *
 * - POST /bare: a bare Fastify route answering a JSON body of the same shape and size as
 *   getCustomerInfo, with no token check and no database;
 * - POST /minimal: a minimal handler doing the work getCustomerInfo must do, and nothing else:
 *   the same HS256 verify of the bearer token with the same key (server/modules/auth/jwt.ts, the
 *   key the platform stored in the database), the same single prepared SELECT through the same
 *   kind of pool (the platform's own getCustomerInfo handler runs it: server/db/prepared.ts), and
 *   the same JSON answer. Only when a database is given (DATABASE_URL, or DATA_DIR for PGlite;
 *   PGlite allows one process at a time, so the platform must be stopped first).
 */
import Fastify from 'fastify';
import { openPglite, openPostgres } from '../server/db/open.ts';
import { verifyHs256 } from '../server/modules/auth/jwt.ts';
import { loadSigningKey } from '../server/modules/auth/signing-key.ts';
import { customerHandlers } from '../server/modules/customers/customers.methods.ts';
import type { MethodContext } from '../server/modules/method-types.ts';

const customer = {
  responseCode: '00',
  customer: {
    customerType: 'personal', userId: 1, customerId: 1, login: 'anna@demo.test', firstName: 'Anna',
    lastName: 'Kowalska', businessName: null, transactionApproveMode: 'none', login2faMode: 'otp',
    isAdmin: false, isHaveRelatedAccounts: false, useOldWeb: false, oldWebUrl: null, birthDay: '1990-04-12',
    customerCreationDate: '2026-01-01T00:00:00.000Z', residenceCountryCode: 'LT', taxId: null,
    permissions: {}, verified: true, limited: false, dueDiligenceLevel: 0, isNeedPersonalInfoUpdate: false,
    isNeedKyc: false, isTaxSectionActionRequired: false, twoStepVerificationMode: 3, language: 'en', userType: 1,
  },
};

const app = Fastify({ logger: false });
app.post('/bare', async () => customer);

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = process.env.DATA_DIR || undefined;
if (databaseUrl || dataDir) {
  const database = databaseUrl ? await openPostgres(databaseUrl, Number(process.env.DATABASE_POOL_MAX ?? 10)) : await openPglite(dataDir);
  const key = await loadSigningKey(database.db, process.env.JWT_SECRET);
  app.addHook('onClose', () => database.close());
  app.post('/minimal', async (request, reply) => {
    const header = request.headers.authorization;
    const claims = typeof header === 'string' && header.startsWith('Bearer ') ? verifyHs256(header.slice(7), key, Date.now()) : null;
    const userId = Number(claims?.sub);
    if (!claims || !Number.isSafeInteger(userId)) return reply.code(401).send({ responseCode: 'AU', responseDescription: 'Sign-in required' });
    const ctx = { db: database.db, caller: { userId, customerId: claims.cid, isAdmin: false }, customerId: claims.cid } as unknown as MethodContext;
    const result = await customerHandlers.getCustomerInfo({} as never, ctx);
    return { responseCode: '00', ...result };
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void app.close().then(() => process.exit(0)));
const port = Number(process.env.PORT ?? 4651);
await app.listen({ port, host: '127.0.0.1' });
console.log(`references listening on ${port}`);
