/**
 * The request wrapper's `files` option (src/lib/request.ts CallOptions.files): file parts named
 * like a JSON field of the payload, as customerAddressCreateOrReplace needs (its `mainDocument`
 * is the metadata in the JSON part and the file in the part of the same name).
 */
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { configureApiBase } from '../../src/lib/api-base.ts';
import { callMethod, configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { wallet } from '../../variants/wallet.ts';

let sent: RequestInit[] = [];
let answers: number[] = [];

beforeAll(async () => {
  await activateUiLanguage('en');
});
beforeEach(() => {
  sent = [];
  answers = [];
  configureApiBase({ variant: wallet, storage: null, allowCustomUrl: false, location: null });
  configureRequest({ getAccessToken: () => 'token-1', refresh: async () => true, getActingCustomerId: () => null });
  setFetchForTests(async (_input, init) => {
    sent.push(init ?? {});
    const status = answers.shift() ?? 200;
    return new Response(JSON.stringify(status === 200 ? { responseCode: '00', address: null } : { message: 'no' }), { status, headers: { 'Content-Type': 'application/json' } });
  });
});
afterEach(() => setFetchForTests(null));

it('sends the extra file parts beside the JSON part, the field of the same name kept in the JSON', async () => {
  const front = new Blob(['%PDF-1.7 front'], { type: 'application/pdf' });
  const back = new Blob(['%PDF-1.7 back'], { type: 'application/pdf' });
  await callMethod(
    'customerAddressCreateOrReplace',
    { address1: 'Pilies g. 1', city: 'Vilnius', postalCode: 'LT-01103', countryCode: 'LT', mainDocument: { documentTypeId: 10, issuedDate: '2026-03-01' } },
    { files: [['mainDocument', front], ['mainDocument.back', back]] },
  );
  const form = sent[0]?.body;
  expect(form).toBeInstanceOf(FormData);
  const data = JSON.parse(String((form as FormData).get('data')));
  expect(data.mainDocument).toEqual({ documentTypeId: 10, issuedDate: '2026-03-01' });
  expect((form as FormData).get('mainDocument')).toBeInstanceOf(Blob);
  expect((form as FormData).get('mainDocument.back')).toBeInstanceOf(Blob);
  expect(new Headers(sent[0]?.headers).get('Content-Type')).toBeNull();
});

it('sends the same parts again on the replay after a 401', async () => {
  answers = [401, 200];
  const front = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
  await callMethod('customerAddressCreateOrReplace', { address1: 'a', city: 'b', postalCode: 'c', countryCode: 'LT', mainDocument: { documentTypeId: 10 } }, { files: [['mainDocument', front]] });
  expect(sent).toHaveLength(2);
  expect((sent[1]?.body as FormData).get('mainDocument')).toBeInstanceOf(Blob);
});

it('without files a payload without a Blob stays JSON', async () => {
  await callMethod('customerAddressDelete', { id: 1 });
  expect(typeof sent[0]?.body).toBe('string');
});
