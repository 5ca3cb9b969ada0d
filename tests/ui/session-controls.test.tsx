import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSavedLanguage } from '../../src/app/session-controls.tsx';
import { activateUiLanguage, getUiLanguage } from '../../src/lib/i18n.ts';
import { makeCustomer } from '../model/support.ts';

afterEach(async () => {
  sessionStorage.clear();
  await activateUiLanguage('en');
});

describe('the language saved in the settings', () => {
  it('becomes the UI language after sign-in (ua in settings is uk in the UI)', async () => {
    renderHook(() => useSavedLanguage(makeCustomer({ language: 'ua' })));
    await waitFor(() => expect(getUiLanguage()).toBe('uk'));
  });

  it('is applied once per session, so a later choice in the switcher survives a reload', async () => {
    const { unmount } = renderHook(() => useSavedLanguage(makeCustomer({ language: 'es' })));
    await waitFor(() => expect(getUiLanguage()).toBe('es'));
    unmount();
    await activateUiLanguage('ro'); // the customer picks Romanian; the cached customer still says es
    renderHook(() => useSavedLanguage(makeCustomer({ language: 'es' })));
    await new Promise((r) => setTimeout(r, 20));
    expect(getUiLanguage()).toBe('ro');
  });

  it('does nothing before the customer has loaded', async () => {
    renderHook(() => useSavedLanguage(null));
    await new Promise((r) => setTimeout(r, 20));
    expect(getUiLanguage()).toBe('en');
  });
});
