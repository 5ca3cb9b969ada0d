/**
 * The language switcher: only the variant's languages. When signed in the choice is also saved in
 * the customer's settings (customerLanguageUpdate, `ua` for Ukrainian); a failure there keeps the
 * new UI language and says the setting was not saved.
 */
import { useId, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { activeVariant } from '../../variants/index.ts';
import { getUiLanguage, isUiLang, languageNames, languageTags, setUiLanguage, toSettingsLanguage, type UiLang } from '../lib/i18n.ts';
import { pushToast } from '../lib/notify.ts';

export function LanguageSwitcher({ signedIn, languages = activeVariant.languages }: { signedIn: boolean; languages?: readonly UiLang[] }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const [busy, setBusy] = useState(false);
  // i18n.locale re-renders this component through the provider on change.
  const current = isUiLang(i18n.locale) ? i18n.locale : getUiLanguage();

  if (languages.length < 2) return null;

  async function choose(lang: UiLang) {
    setBusy(true);
    try {
      await setUiLanguage(lang);
      if (signedIn) {
        // the request wrapper loads with the first call, not with the sign-in page (request-later.ts)
        const { callMethod, describeFailure, isFailure } = await import('../lib/request.ts');
        const answer = await callMethod('customerLanguageUpdate', { language: toSettingsLanguage(lang) });
        if (isFailure(answer)) {
          pushToast({ tone: 'error', title: t`Your language setting was not saved`, body: describeFailure(answer) });
        }
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="lang-switcher">
      <label htmlFor={id}>{t`Language`}</label>
      <select
        id={id}
        value={current}
        disabled={busy}
        onChange={(e) => {
          const value = e.currentTarget.value;
          if (isUiLang(value) && languages.includes(value)) void choose(value);
        }}
      >
        {languages.map((lang) => (
          <option key={lang} value={lang} lang={languageTags[lang]}>
            {languageNames[lang]}
          </option>
        ))}
      </select>
    </div>
  );
}
