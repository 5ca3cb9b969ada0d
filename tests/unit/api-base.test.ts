import { beforeEach, describe, expect, it, vi } from 'vitest';
import { applyApiQuery, configureApiBase, getApiOrigin, getAuthUrl, getMethodUrl, getPushUrl, storageKeys } from '../../src/lib/api-base.ts';
import { wallet } from '../../variants/wallet.ts';

class MemoryStorage {
  private map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

let storage: MemoryStorage;

beforeEach(() => {
  storage = new MemoryStorage();
  configureApiBase({ variant: wallet, storage, allowCustomUrl: false, location: { protocol: 'https:', host: 'bank.example' } });
});

describe('api base', () => {
  it('production is the same origin', () => {
    expect(getApiOrigin()).toBe('');
    expect(getMethodUrl('getCustomerInfo')).toBe('/api/v1/?getCustomerInfo');
    expect(getAuthUrl('/auth/login')).toBe('/auth/login');
    expect(getPushUrl()).toBe('wss://bank.example/graphql');
  });

  it('an api index 1-15 picks the variant staging base and is remembered', () => {
    expect(applyApiQuery('7')).toBe(true);
    expect(storage.getItem(storageKeys.index)).toBe('7');
    expect(getApiOrigin()).toBe('https://stage7.api.lumen-wallet.example');
    expect(getMethodUrl('dictionaries')).toBe('https://stage7.api.lumen-wallet.example/api/v1/?dictionaries');
    expect(getPushUrl()).toBe('wss://stage7.api.lumen-wallet.example/graphql');
  });

  it('indexes outside 1-15 and junk change nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    applyApiQuery('3');
    for (const bad of ['16', '-1', '1.5', 'abc', '', '015x']) {
      expect(applyApiQuery(bad)).toBe(false);
    }
    expect(getApiOrigin()).toBe('https://stage3.api.lumen-wallet.example');
    warn.mockRestore();
  });

  it('production or 0 clears the override', () => {
    applyApiQuery('3');
    expect(applyApiQuery('production')).toBe(true);
    expect(getApiOrigin()).toBe('');
  });

  it('a URL override is refused outside development builds', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(applyApiQuery('https://evil.example')).toBe(false);
    storage.setItem(storageKeys.url, 'https://evil.example');
    expect(getApiOrigin()).toBe('');
    warn.mockRestore();
  });

  it('a URL override works in development, and customWssUrl overrides the socket', () => {
    configureApiBase({ allowCustomUrl: true });
    expect(applyApiQuery('http://localhost:4000/')).toBe(true);
    expect(getApiOrigin()).toBe('http://localhost:4000');
    expect(getPushUrl()).toBe('ws://localhost:4000/graphql');
    storage.setItem(storageKeys.wss, 'wss://push.example/graphql');
    expect(getPushUrl()).toBe('wss://push.example/graphql');
  });

  it('localStorage customApiIndex alone selects staging', () => {
    storage.setItem(storageKeys.index, '15');
    expect(getApiOrigin()).toBe('https://stage15.api.lumen-wallet.example');
  });
});
