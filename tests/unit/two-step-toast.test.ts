/** The two-step verification push events become toasts (src/lib/two-step-toast.ts). */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { clearToasts, getToasts } from '../../src/lib/notify.ts';
import { isTwoStepPush, showTwoStepToast } from '../../src/lib/two-step-toast.ts';

beforeAll(() => activateUiLanguage('en'));
afterEach(() => clearToasts());

describe('two-step toasts', () => {
  it('says which method was confirmed, and that a change started', () => {
    showTwoStepToast({ type: 'TwoStepVerificationConfirmed', mode: 3 });
    showTwoStepToast({ type: 'TwoStepVerificationModeSet', mode: 2, reqId: 'r' });
    expect(getToasts().map((t) => [t.title, t.body ?? null, t.tone])).toEqual([
      ['Two-step verification is now: Authenticator app.', null, 'success'],
      ['A change of two-step verification was started.', 'Code by SMS', 'info'],
    ]);
  });

  it('recognises only the two-step events', () => {
    expect(isTwoStepPush({ type: 'TwoStepVerificationConfirmed', mode: 1 })).toBe(true);
    expect(isTwoStepPush({ type: 'PasswordChange', status: 'changed' })).toBe(false);
  });
});
