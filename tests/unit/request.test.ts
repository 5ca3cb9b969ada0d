/**
 * The request wrapper's rules (document 1 §5, §7, §8). fetch is replaced inside these tests only.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { configureApiBase } from '../../src/lib/api-base.ts';
import {
  callMethod,
  configureRequest,
  describeFailure,
  dropEmpty,
  normaliseAnswer,
  setFetchForTests,
  splitFiles,
} from '../../src/lib/request.ts';
import { wallet } from '../../variants/wallet.ts';
import { REPRESENTATIVE_SECRET_METHODS } from '../../api/method.ts';
import { makeCustomer } from '../model/support.ts';

// taxId and birthDay are numeric-looking strings the wrapper must leave alone
const customer = makeCustomer({
  userId: 7,
  customerId: 70,
  transactionApproveMode: 'otp',
  birthDay: '1990-01-01',
  customerCreationDate: '2024-01-01T00:00:00.000Z',
  taxId: '123456789',
  dueDiligenceLevel: 1,
});

type Call = { url: string; init: RequestInit };
let calls: Call[];

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function answerWith(...responses: (Response | Error)[]) {
  const queue = [...responses];
  setFetchForTests(async (input, init) => {
    calls.push({ url: String(input), init: init ?? {} });
    const next = queue.shift();
    if (!next) throw new Error('unexpected extra call');
    if (next instanceof Error) throw next;
    return next;
  });
}

function headersOf(call: Call | undefined): Headers {
  return new Headers(call?.init.headers);
}

let token: string | null;
let acting: number | null;
let refreshes: number;
let refreshResult: boolean;

beforeAll(async () => {
  await activateUiLanguage('en');
});

beforeEach(() => {
  calls = [];
  token = 'token-1';
  acting = null;
  refreshes = 0;
  refreshResult = true;
  configureApiBase({ variant: wallet, storage: null, allowCustomUrl: false, location: null });
  configureRequest({
    getAccessToken: () => token,
    refresh: async () => {
      refreshes += 1;
      if (refreshResult) token = 'token-2';
      return refreshResult;
    },
    getActingCustomerId: () => acting,
  });
});

afterEach(() => setFetchForTests(null));

describe('request', () => {
  it('posts to /api/v1/?name with the contract headers and Bearer token', async () => {
    answerWith(json(200, { responseCode: '00', customer }));
    const answer = await callMethod('getCustomerInfo', {});
    expect(answer.responseCode).toBe('00');
    expect(calls[0]?.url).toBe('/api/v1/?getCustomerInfo');
    expect(calls[0]?.init.method).toBe('POST');
    const headers = headersOf(calls[0]);
    expect(headers.get('Accept-Language')).toBe('en');
    expect(headers.get('X-Client-Version')).toBe('2.1.2');
    expect(headers.get('Authorization')).toBe('Bearer token-1');
    expect(headers.get('Customer-Id')).toBeNull();
    // Document 1 §7: the body carries the method's name beside the path's.
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ method: 'getCustomerInfo' });
  });

  it('sends no Authorization header without a token', async () => {
    token = null;
    answerWith(json(200, { responseCode: '00', dictionary: { currency: [] } }));
    await callMethod('dictionaryCurrencies', {});
    expect(headersOf(calls[0]).get('Authorization')).toBeNull();
  });

  it('sends the UI language as Accept-Language and lang for dictionary methods', async () => {
    await activateUiLanguage('uk');
    try {
      answerWith(json(200, { responseCode: '00', dictionary: { currency: [] } }));
      await callMethod('dictionaryCurrencies', {});
      expect(headersOf(calls[0]).get('Accept-Language')).toBe('uk');
      expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ method: 'dictionaryCurrencies', lang: 'uk' });
    } finally {
      await activateUiLanguage('en');
    }
  });

  it('adds Customer-Id and fromCustomerId when acting for a company', async () => {
    acting = 501;
    answerWith(json(200, { responseCode: '00', accounts: { account: [] } }));
    await callMethod('balanceInquiry', {});
    expect(headersOf(calls[0]).get('Customer-Id')).toBe('501');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ method: 'balanceInquiry', fromCustomerId: 501 });
  });

  it('sends the representative\'s fromEmail and authSecret only with the methods listed for them', async () => {
    configureRequest({
      getAccessToken: () => token,
      refresh: async () => false,
      getActingCustomerId: () => null,
      getRepresentativeSecret: () => ({ fromEmail: 'rep@example.test', authSecret: 's'.repeat(32) }),
    });
    answerWith(json(200, { responseCode: '00' }));
    await callMethod('termsAccept', { terms: [] });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ method: 'termsAccept', terms: [] });
    expect(REPRESENTATIVE_SECRET_METHODS.has('personalFatcaCrsCertificationGet')).toBe(true);
  });

  it('drops null, undefined and NaN fields deeply before sending', async () => {
    answerWith(json(200, { responseCode: '00' }));
    await callMethod('termsAccept', {
      terms: [{ id: 1, version: 2 }],
      // @ts-expect-error extra fields a caller might leave empty
      note: null,
      extra: { a: undefined, b: Number.NaN, c: 0, d: [null, 1, { e: null, f: '' }] },
    });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ terms: [{ id: 1, version: 2 }], extra: { c: 0, d: [1, { f: '' }] }, method: 'termsAccept' });
  });

  it('sets a 5-minute time-out signal', async () => {
    const spy = vi.spyOn(AbortSignal, 'timeout');
    answerWith(json(200, { responseCode: '00' }));
    await callMethod('termsAccept', { terms: [{ id: 1, version: 1 }] });
    expect(spy).toHaveBeenCalledWith(300_000);
    expect(calls[0]?.init.signal).toBeInstanceOf(AbortSignal);
    spy.mockRestore();
  });

  it('on 401 refreshes once and replays with the new token', async () => {
    answerWith(json(401, { responseCode: 'AU' }), json(200, { responseCode: '00', customer }));
    const answer = await callMethod('getCustomerInfo', {});
    expect(answer.responseCode).toBe('00');
    expect(refreshes).toBe(1);
    expect(calls).toHaveLength(2);
    expect(headersOf(calls[1]).get('Authorization')).toBe('Bearer token-2');
  });

  it('a second 401 answers AU without another refresh', async () => {
    answerWith(json(401, { responseCode: 'AU' }), json(401, { responseCode: 'AU' }));
    const answer = await callMethod('getCustomerInfo', {});
    expect(answer.responseCode).toBe('AU');
    expect(refreshes).toBe(1);
    expect(calls).toHaveLength(2);
  });

  it('a failed refresh answers AU without a replay', async () => {
    refreshResult = false;
    answerWith(json(401, { responseCode: 'AU' }));
    const answer = await callMethod('getCustomerInfo', {});
    expect(answer.responseCode).toBe('AU');
    expect(calls).toHaveLength(1);
  });

  it('HTTP 500 says the server is not available', async () => {
    answerWith(json(500, { oops: true }));
    const answer = await callMethod('getCustomerInfo', {});
    expect(answer).toEqual({ responseCode: 'UE', responseDescription: 'Server is not available' });
  });

  it('a network failure is AE', async () => {
    answerWith(new TypeError('Failed to fetch'));
    const answer = await callMethod('getCustomerInfo', {});
    expect(answer.responseCode).toBe('AE');
    expect(describeFailure(answer as never)).toMatch(/network/i);
  });

  it('returns failure envelopes as values (VF with validation errors)', async () => {
    answerWith(json(200, { responseCode: 'VF', validationErrors: [{ param: 'language', description: 'is not one of the allowed values', code: 'notAllowed', params: {} }] }));
    const answer = await callMethod('customerLanguageUpdate', { language: 'en' });
    expect(answer.responseCode).toBe('VF');
    // the code in the customer's words (src/lib/validation-messages.ts), not the platform's English
    if (answer.responseCode !== '00') expect(describeFailure(answer)).toBe('Choose one of the offered values.');
    // another platform's error without a code: its own description
    answerWith(json(200, { responseCode: 'VF', validationErrors: [{ param: 'language', description: 'Invalid' }] }));
    const other = await callMethod('customerLanguageUpdate', { language: 'en' });
    if (other.responseCode !== '00') expect(describeFailure(other)).toBe('Invalid');
  });

  it('a success that does not match the response schema is UE, with a console error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answerWith(json(200, { responseCode: '00', customer: { ...customer, userId: 'not a number' } }));
    const answer = await callMethod('getCustomerInfo', {});
    expect(answer.responseCode).toBe('UE');
    expect(error).toHaveBeenCalledOnce();
    expect(JSON.stringify(error.mock.calls)).not.toContain('anna@demo.test');
    error.mockRestore();
  });

  it('turns numeric strings in answers into numbers but keeps name, address and amount fields', async () => {
    answerWith(
      json(200, {
        responseCode: '00',
        accounts: {
          account: [
            {
              accountId: '12',
              type: '1001',
              subType: null,
              accountStatusId: '1',
              currency: 'EUR',
              balance: '10.50',
              accountBalanceMin: '0',
              pendingAmount: '0',
              customerId: '70',
              settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null,
            },
          ],
        },
      }),
    );
    const answer = await callMethod('balanceInquiry', {});
    expect(answer.responseCode).toBe('00');
    if ('accounts' in answer) {
      const account = answer.accounts.account[0];
      expect(account?.accountId).toBe(12);
      expect(account?.type).toBe(1001);
      expect(account?.balance).toBe('10.50');
      expect(account?.accountBalanceMin).toBe('0');
    }
  });

  it('sends multipart with a data part when the payload holds a file', async () => {
    answerWith(json(200, { responseCode: '00' }));
    const file = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    // @ts-expect-error no method of the foundation takes a file yet; the rule is generic
    await callMethod('termsAccept', { terms: [{ id: 1, version: 1 }], document: { front: file } });
    const body = calls[0]?.init.body;
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(JSON.parse(String(form.get('data')))).toEqual({ terms: [{ id: 1, version: 1 }], document: {}, method: 'termsAccept' });
    expect(form.get('document.front')).toBeInstanceOf(Blob);
    expect(headersOf(calls[0]).get('Content-Type')).toBeNull();
  });
});

describe('payload and answer helpers', () => {
  it('dropEmpty keeps falsy values that are not empty', () => {
    expect(dropEmpty({ a: 0, b: false, c: '', d: null, e: [undefined, 0] })).toEqual({ a: 0, b: false, c: '', e: [0] });
  });

  it('splitFiles names each file by its dotted path', () => {
    const f = new Blob(['x']);
    const { json, files } = splitFiles({ a: [f, 1], b: { c: f } });
    expect(json).toEqual({ a: [null, 1], b: {} });
    expect(files.map(([p]) => p)).toEqual(['a.0', 'b.c']);
  });

  it('normaliseAnswer keeps codes, names, amounts, leading zeros and long digit strings', () => {
    expect(
      normaliseAnswer({
        responseCode: '00',
        id: '5',
        ratio: '1.25',
        rate: '1.0850000001',
        fee: '0.50',
        postalCode: '01103',
        firstName: '123',
        phoneCode: '370',
        code: '00042',
        other: '007',
        big: '12345678901234567890',
        list: [{ name: '42', count: '3' }],
      }),
    ).toEqual({
      responseCode: '00',
      id: 5,
      ratio: 1.25,
      // money amounts and rates stay exact decimal strings
      rate: '1.0850000001',
      fee: '0.50',
      postalCode: '01103',
      firstName: '123',
      phoneCode: '370',
      code: '00042',
      other: '007',
      big: '12345678901234567890',
      list: [{ name: '42', count: 3 }],
    });
  });
});
