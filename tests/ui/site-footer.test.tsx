/** The site footer's support line: the variant's opening hours written in the UI language. */
import { afterEach, describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { activateUiLanguage, i18n } from '../../src/lib/i18n.ts';
import { SiteFooter } from '../../src/app/site-footer.tsx';
import { activeVariant } from '../../variants/index.ts';
import { formatSupportHours } from '../../variants/support-hours.ts';

afterEach(async () => {
  await act(() => activateUiLanguage('en'));
});

describe('SiteFooter', () => {
  it('shows the opening hours in the UI language and follows a language change', async () => {
    await act(() => activateUiLanguage('en'));
    const view = render(
      <I18nProvider i18n={i18n}>
        <SiteFooter />
      </I18nProvider>,
    );
    const footer = view.container.querySelector('footer')!;
    expect(footer.textContent).toContain(formatSupportHours(activeVariant.support.hours, 'en'));
    await act(() => activateUiLanguage('uk'));
    expect(footer.textContent).toContain(formatSupportHours(activeVariant.support.hours, 'uk'));
    expect(footer.textContent).not.toContain(formatSupportHours(activeVariant.support.hours, 'en'));
  });
});
