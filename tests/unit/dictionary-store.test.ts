import { describe, expect, it, vi } from 'vitest';
import { createDictionaryStore, type DictionaryCall } from '../../src/lib/dictionary-store.ts';

type Answer = { responseCode: string } & Record<string, unknown>;

function deferred() {
  let resolve!: (answer: Answer) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Answer>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const occupations = (...names: string[]): Answer => ({
  responseCode: '00',
  occupation: names.map((name, index) => ({ id: index + 1, name })),
});

const addressTypes = (countryCode: string): Answer => ({
  responseCode: '00',
  customerDocumentCategories: [
    { id: 2, name: 'Address', customerDocumentTypes: [{ id: countryCode === 'RU' ? 88 : 10, name: 'x', needsBack: false }] },
  ],
});

describe('dictionary store: a load in progress is not started twice', () => {
  it('concurrent callers share one call and one answer', async () => {
    const pending = deferred();
    const call = vi.fn<DictionaryCall>(() => pending.promise);
    const store = createDictionaryStore({ call, isSignedIn: () => false });

    const first = store.load('dictionaryOccupation', { lang: 'en' });
    const second = store.load('dictionaryOccupation', { lang: 'en' });
    expect(store.isLoading('dictionaryOccupation', { lang: 'en' })).toBe(true);
    pending.resolve(occupations('Accountant'));

    const [a, b] = await Promise.all([first, second]);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith('dictionaryOccupation', { lang: 'en' });
    expect(a).toBe(b);
    expect(store.get('dictionaryOccupation', { lang: 'en' })?.occupation).toEqual([{ id: 1, name: 'Accountant' }]);
    expect(store.isLoading('dictionaryOccupation', { lang: 'en' })).toBe(false);
  });

  it('a refresh while a load is in progress joins it instead of calling again', async () => {
    const pending = deferred();
    const call = vi.fn<DictionaryCall>(() => pending.promise);
    const store = createDictionaryStore({ call, isSignedIn: () => false });
    const first = store.load('dictionaryOccupation', { lang: 'en' });
    const refresh = store.load('dictionaryOccupation', { lang: 'en' }, { refresh: true });
    pending.resolve(occupations('Accountant'));
    await Promise.all([first, refresh]);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('a stored answer is served without a call; refresh calls again; languages are separate entries', async () => {
    const call = vi.fn<DictionaryCall>(async (_name, payload) =>
      occupations((payload as { lang: string }).lang === 'uk' ? 'Бухгалтер' : 'Accountant'),
    );
    const store = createDictionaryStore({ call, isSignedIn: () => false });
    await store.load('dictionaryOccupation', { lang: 'en' });
    await store.load('dictionaryOccupation', { lang: 'en' });
    expect(call).toHaveBeenCalledTimes(1);
    await store.load('dictionaryOccupation', { lang: 'uk' });
    expect(call).toHaveBeenCalledTimes(2);
    expect(store.get('dictionaryOccupation', { lang: 'uk' })?.occupation[0]?.name).toBe('Бухгалтер');
    expect(store.get('dictionaryOccupation', { lang: 'en' })?.occupation[0]?.name).toBe('Accountant');
    await store.load('dictionaryOccupation', { lang: 'en' }, { refresh: true });
    expect(call).toHaveBeenCalledTimes(3);
  });

  it('after a rejected call the next load tries again', async () => {
    const call = vi
      .fn<DictionaryCall>()
      .mockRejectedValueOnce(new Error('socket closed'))
      .mockResolvedValueOnce(occupations('Accountant'));
    const store = createDictionaryStore({ call, isSignedIn: () => false });
    await expect(store.load('dictionaryOccupation', { lang: 'en' })).rejects.toThrow('socket closed');
    expect(store.isLoading('dictionaryOccupation', { lang: 'en' })).toBe(false);
    await store.load('dictionaryOccupation', { lang: 'en' });
    expect(call).toHaveBeenCalledTimes(2);
    expect(store.get('dictionaryOccupation', { lang: 'en' })?.occupation).toHaveLength(1);
  });
});

describe('dictionary store: a failed answer does not replace the stored list', () => {
  it('returns the failure to the caller and keeps the previous list', async () => {
    const failure = { responseCode: 'UE', responseDescription: 'database unavailable' };
    const call = vi
      .fn<DictionaryCall>()
      .mockResolvedValueOnce(occupations('Accountant', 'Architect'))
      .mockResolvedValueOnce(failure);
    const store = createDictionaryStore({ call, isSignedIn: () => false });

    await store.load('dictionaryOccupation', { lang: 'en' });
    const before = store.get('dictionaryOccupation', { lang: 'en' });
    expect(before?.occupation).toHaveLength(2);

    const answer = await store.load('dictionaryOccupation', { lang: 'en' }, { refresh: true });
    expect(answer).toEqual(failure);
    // Same object: the stored list was not touched.
    expect(store.get('dictionaryOccupation', { lang: 'en' })).toBe(before);
    // And it is still served from the store.
    expect(await store.load('dictionaryOccupation', { lang: 'en' })).toBe(before);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('a first load that fails stores nothing, so the next load calls again', async () => {
    const call = vi
      .fn<DictionaryCall>()
      .mockResolvedValueOnce({ responseCode: 'UE' })
      .mockResolvedValueOnce(occupations('Accountant'));
    const store = createDictionaryStore({ call, isSignedIn: () => false });
    expect((await store.load('dictionaryOccupation', { lang: 'en' })).responseCode).toBe('UE');
    expect(store.get('dictionaryOccupation', { lang: 'en' })).toBeUndefined();
    expect((await store.load('dictionaryOccupation', { lang: 'en' })).responseCode).toBe('00');
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('a success answer that does not match the contract is not stored', async () => {
    const call = vi.fn<DictionaryCall>().mockResolvedValueOnce({ responseCode: '00', occupation: [{ id: 'one' }] });
    const store = createDictionaryStore({ call, isSignedIn: () => false });
    const answer = await store.load('dictionaryOccupation', { lang: 'en' });
    expect(answer.responseCode).toBe('UE');
    expect(store.get('dictionaryOccupation', { lang: 'en' })).toBeUndefined();
  });
});

describe('dictionary store: address document types', () => {
  it('are not fetched while signed out: AU without a call', async () => {
    const call = vi.fn<DictionaryCall>(async () => addressTypes('RU'));
    const store = createDictionaryStore({ call, isSignedIn: () => false });
    const answer = await store.load('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' });
    expect(answer.responseCode).toBe('AU');
    expect(call).not.toHaveBeenCalled();
    expect(store.get('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' })).toBeUndefined();
  });

  it('are cached per country once signed in', async () => {
    let signedIn = false;
    const call = vi.fn<DictionaryCall>(async (_name, payload) => addressTypes((payload as { countryCode: string }).countryCode));
    const store = createDictionaryStore({ call, isSignedIn: () => signedIn });
    signedIn = true;
    await store.load('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' });
    await store.load('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'DE' });
    await store.load('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' });
    expect(call).toHaveBeenCalledTimes(2);
    expect(call).toHaveBeenNthCalledWith(1, 'dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' });
    const ru = store.get('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' });
    const de = store.get('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'DE' });
    expect(ru?.customerDocumentCategories[0]?.customerDocumentTypes[0]?.id).toBe(88);
    expect(de?.customerDocumentCategories[0]?.customerDocumentTypes[0]?.id).toBe(10);
  });

  it('clear() at sign-out drops them, and a load in flight at that moment does not store its answer', async () => {
    const pending = deferred();
    const call = vi.fn<DictionaryCall>(() => pending.promise);
    const store = createDictionaryStore({ call, isSignedIn: () => true });
    const loading = store.load('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' });
    store.clear('dictionaryCustomerAddressDocumentTypes');
    pending.resolve(addressTypes('RU'));
    expect((await loading).responseCode).toBe('00');
    expect(store.get('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' })).toBeUndefined();
  });
});

describe('dictionary store: bounds and notifications', () => {
  it('keeps at most maxEntries entries, dropping the oldest', async () => {
    const call = vi.fn<DictionaryCall>(async () => occupations('Accountant'));
    const store = createDictionaryStore({ call, isSignedIn: () => false, maxEntries: 2 });
    await store.load('dictionaryOccupation', { lang: 'en' });
    await store.load('dictionaryOccupation', { lang: 'es' });
    await store.load('dictionaryOccupation', { lang: 'pt' });
    expect(store.get('dictionaryOccupation', { lang: 'en' })).toBeUndefined();
    expect(store.get('dictionaryOccupation', { lang: 'pt' })).toBeDefined();
  });

  it('notifies subscribers when a load starts and ends, and stops after unsubscribe', async () => {
    const call = vi.fn<DictionaryCall>(async () => occupations('Accountant'));
    const store = createDictionaryStore({ call, isSignedIn: () => false });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    await store.load('dictionaryOccupation', { lang: 'en' });
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    await store.load('dictionaryOccupation', { lang: 'en' }, { refresh: true });
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
