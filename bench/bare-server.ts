/**
 * The reference for the RPC benchmark: a bare Fastify route answering a JSON body of the same
 * shape and size as getCustomerInfo, with no token check and no database.
 */
import Fastify from 'fastify';

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
const port = Number(process.env.PORT ?? 4399);
await app.listen({ port, host: '127.0.0.1' });
console.log(`bare listening on ${port}`);
