import { beforeAll, describe, expect, it } from 'vitest';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { errorPopupContent } from '../../src/lib/errors.ts';

beforeAll(async () => {
  await activateUiLanguage('en');
});

describe('generic error popup (document 3 §8)', () => {
  it('uses a short description as the header and the message as the body', () => {
    expect(errorPopupContent({ responseCode: 'UE', responseDescription: 'Transfer failed' }, 'Try again later.')).toEqual({
      title: 'Transfer failed',
      body: 'Try again later.',
    });
  });

  it('a description of exactly 50 characters is still the header', () => {
    const fifty = 'x'.repeat(50);
    expect(errorPopupContent({ responseCode: 'UE', responseDescription: fifty }, 'm').title).toBe(fifty);
  });

  it('over 50 characters: header Error, body the description', () => {
    const long = 'The account you are trying to use has been closed by the provider.';
    expect(long.length).toBeGreaterThan(50);
    expect(errorPopupContent({ responseCode: 'CA', responseDescription: long }, 'ignored')).toEqual({ title: 'Error', body: long });
  });

  it('joins validation errors as param: description', () => {
    expect(
      errorPopupContent({
        responseCode: 'VF',
        responseDescription: 'Validation failed',
        validationErrors: [
          { param: 'email', description: 'must be an e-mail address' },
          { param: 'phone', description: 'is required' },
        ],
      }),
    ).toEqual({ title: 'Validation failed', body: 'email: must be an e-mail address, phone: is required' });
  });

  it('without a description the header is Error and the body explains the code', () => {
    expect(errorPopupContent({ responseCode: 'AE' })).toEqual({ title: 'Error', body: expect.stringMatching(/network/i) });
  });
});
