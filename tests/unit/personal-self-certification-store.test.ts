/**
 * The unauthorised representative's store (document 3 §6; issue 18 item 6 "a representative's store
 * refusing every other call"): every method name of the registry outside the four actions (and the
 * three public dictionaries the questions read) answers IM without a request; the allowed ones go
 * through the wrapper. Seen red: with isRepresentativeMethod answering true for every name, the
 * first test failed on the first name of the registry.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { ResponseCode } from '../../api/envelope.ts';
import { REPRESENTATIVE_SECRET_METHODS } from '../../api/method.ts';
import { methods, type MethodName } from '../../api/registry.ts';
import { representativeCall, representativeRequestHooks, REPRESENTATIVE_DICTIONARIES } from '../../src/features/tax/personal-representative-store.ts';

beforeAll(async () => {
  await activateUiLanguage('en');
});

describe('the representative’s store', () => {
  it('refuses every other method with IM, without a request', async () => {
    const send = vi.fn(async () => ({ responseCode: '00' }));
    const others = (Object.keys(methods) as MethodName[]).filter((n) => !REPRESENTATIVE_SECRET_METHODS.has(n) && !REPRESENTATIVE_DICTIONARIES.has(n));
    expect(others.length).toBeGreaterThan(100);
    for (const name of others) {
      const answer = await representativeCall(name, {} as never, undefined, send as never);
      expect(answer.responseCode, name).toBe(ResponseCode.invalidMethod);
    }
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the tax, loss-of-nationality and identity methods (and the questions’ dictionaries) through the wrapper', async () => {
    const send = vi.fn(async () => ({ responseCode: '00' }));
    const allowed = [...REPRESENTATIVE_SECRET_METHODS, ...REPRESENTATIVE_DICTIONARIES] as MethodName[];
    for (const name of allowed) expect((await representativeCall(name, {} as never, undefined, send as never)).responseCode, name).toBe('00');
    expect(send).toHaveBeenCalledTimes(allowed.length);
    expect(allowed).toEqual(
      expect.arrayContaining(['personalFatcaCrsCertificationGet', 'personalFatcaCrsCertificationUpdate', 'personalWFormUpload', 'identityVerificationRepresentative']),
    );
  });

  it('its request hooks carry no token and no company, only the secret', async () => {
    const hooks = representativeRequestHooks(() => ({ fromEmail: 'rep@example.test', authSecret: 'x'.repeat(32) }));
    expect(hooks.getAccessToken()).toBeNull();
    expect(hooks.getActingCustomerId()).toBeNull();
    expect(await hooks.refresh()).toBe(false);
    expect(hooks.getRepresentativeSecret?.()).toEqual({ fromEmail: 'rep@example.test', authSecret: 'x'.repeat(32) });
  });
});
