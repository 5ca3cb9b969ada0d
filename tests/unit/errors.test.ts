import { beforeAll, describe, expect, it } from 'vitest';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { errorPopupContent } from '../../src/lib/errors.ts';
import type { Failure } from '../../api/envelope.ts';

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

  it('words each validation error by its code, in the customer language', async () => {
    const failure: Failure = {
      responseCode: 'VF',
      responseDescription: 'Invalid request',
      validationErrors: [
        { param: 'email', description: 'must be an e-mail address', code: 'notEmail', params: {} },
        { param: 'name', description: 'must be at most 60 characters', code: 'tooLong', params: { max: 60 } },
      ],
    };
    expect(errorPopupContent(failure)).toEqual({ title: 'Invalid request', body: 'Enter an e-mail address. Enter at most 60 characters.' });
    // The platform's English description is no header for a Russian reader.
    await activateUiLanguage('ru');
    expect(errorPopupContent(failure)).toEqual({ title: 'Ошибка', body: 'Введите адрес электронной почты. Введите не более 60 символов.' });
    expect(errorPopupContent({ responseCode: 'TA1', responseDescription: 'No such document' })).toEqual({ title: 'Ошибка', body: 'Запрос не принят.' });
    await activateUiLanguage('en');
  });

  it('without a description the header is Error and the body explains the code', () => {
    expect(errorPopupContent({ responseCode: 'AE' })).toEqual({ title: 'Error', body: expect.stringMatching(/network/i) });
  });
});
