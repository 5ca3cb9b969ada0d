/** The companion page around its view: the provider's name, the language choice, the main region. */
import { useLingui } from '@lingui/react/macro';
import { activeVariant } from '../../variants/index.ts';
import type { CompanionInput, DeviceCompanionMachine } from '../../machines/device-companion/device-companion.machine.ts';
import { getUiLanguage, isUiLang, languageNames, languageTags, setUiLanguage } from '../lib/i18n.ts';
import { CompanionView } from './companion-view.tsx';
import { DemoBanner } from '../ui/demo-banner.tsx';

export function CompanionShell({ logic, input }: { logic: DeviceCompanionMachine; input: CompanionInput }) {
  const { t, i18n } = useLingui();
  const current = isUiLang(i18n.locale) ? i18n.locale : getUiLanguage();
  const languages = activeVariant.languages;
  return (
    <div className="companion-shell">
      <DemoBanner />
      <header className="companion-header">
        <span className="companion-brand">{activeVariant.projectName}</span>
        {languages.length > 1 ? (
          <label className="companion-language">
            <span className="visually-hidden">{t`Language`}</span>
            <select value={current} onChange={(e) => (isUiLang(e.currentTarget.value) ? void setUiLanguage(e.currentTarget.value) : undefined)}>
              {languages.map((lang) => (
                <option key={lang} value={lang} lang={languageTags[lang]}>
                  {languageNames[lang]}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </header>
      <main id="main" tabIndex={-1} className="companion-main">
        <CompanionView logic={logic} input={input} />
      </main>
    </div>
  );
}
