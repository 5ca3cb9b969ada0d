/** Test helpers shared by the auth model and unit tests (tests only: never imported by the app). */
import type { Tokens } from '../../api/auth.ts';
import type { Customer } from '../../api/customer.ts';
import type { AccessInfo } from '../../machines/session/session.machine.ts';

const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** An unsigned JWT-shaped token whose exp is `expiresInS` from `nowMs`. */
export function makeAccessToken(expiresInS: number, nowMs = Date.now(), extra: Record<string, unknown> = {}): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ sub: '1', cid: 1, fam: 'f', iat: Math.floor(nowMs / 1000), exp: Math.floor(nowMs / 1000) + expiresInS, ...extra }));
  return `${header}.${claims}.signature`;
}

let serial = 0;
export function makeTokens(expiresInS = 300, nowMs = Date.now()): Tokens {
  serial += 1;
  return { accessToken: makeAccessToken(expiresInS, nowMs, { n: serial }), refreshToken: `refresh-${serial}` };
}

export function makeCustomer(over: Partial<Customer> = {}): Customer {
  return {
    customerType: 'personal',
    userId: 1,
    customerId: 10,
    login: 'anna@demo.test',
    firstName: 'Anna',
    lastName: 'Demo',
    businessName: null,
    transactionApproveMode: 'none',
    login2faMode: 'otp',
    isAdmin: false,
    isHaveRelatedAccounts: false,
    useOldWeb: false,
    oldWebUrl: null,
    birthDay: null,
    customerCreationDate: '2024-01-01',
    residenceCountryCode: 'LT',
    taxId: null,
    permissions: {},
    verified: true,
    limited: false,
    dueDiligenceLevel: 0,
    isNeedPersonalInfoUpdate: false,
    isNeedKyc: false,
    isTaxSectionActionRequired: false,
    twoStepVerificationMode: null,
    language: 'en',
    userType: 1,
    ...over,
  };
}

export function makeAccessInfo(over: Partial<AccessInfo> = {}): AccessInfo {
  return {
    id: 1,
    permissions: {},
    accessRights: 2,
    businessRepresentativePositionIds: [],
    accessList: { balanceInfo: true },
    isNeedKyc: false,
    taxResidencySelfCertificationDocumentStatus: 'validated',
    employeeFirstName: 'Carl',
    employeeLastName: 'Clarke',
    customerUsername: 'northwind',
    customerName: 'Northwind Trading Ltd',
    ...over,
  };
}

/** A promise the test settles: lets a path step decide what an actor answers. */
export class Deferred<T> {
  promise: Promise<T>;
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;
  constructor() {
    this.promise = new Promise<T>((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
  }
}

/** Deferred answers in call order: each actor call takes the next one. */
export class AnswerQueue<TInput, TOutput> {
  calls: TInput[] = [];
  private pending: Deferred<TOutput>[] = [];
  next(input: TInput): Promise<TOutput> {
    this.calls.push(input);
    const d = new Deferred<TOutput>();
    this.pending.push(d);
    return d.promise;
  }
  /** Settles the oldest unsettled call. */
  answer(output: TOutput): void {
    const d = this.pending.shift();
    if (!d) throw new Error('no call is waiting for an answer');
    d.resolve(output);
  }
  fail(error: unknown): void {
    const d = this.pending.shift();
    if (!d) throw new Error('no call is waiting for an answer');
    d.reject(error);
  }
  get waiting(): number {
    return this.pending.length;
  }
}
