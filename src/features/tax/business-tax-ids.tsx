/**
 * The company's tax residences (document 3 §3 taxIds, §5 Tax, §9 the per-country table): one
 * group per country with its business tax number (named as the country names it: EIN, UTR,
 * CUI/CIF...) or, when there is none, why (the TIN missing reasons; the explanation asked only
 * for CANNOT_OBTAIN). A US taxpayer's US entry cannot be removed. Controlled: the values and the
 * problems come from the machine's selector; every change is sent as an event.
 */
import { useLingui } from '@lingui/react/macro';
import type { ValidationError } from '../../../api/envelope.ts';
import { TIN_MISSING_REASONS, type TinMissingReason } from '../../../api/tax-certification.ts';
import { taxNumberEntry } from '../../../api/tax-numbers.ts';
import type { Problem, TaxIdDraft } from '../../../machines/business-self-certification/business-self-certification.machine.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { TextField } from '../../ui/text-field.tsx';

export interface BusinessTaxIdsProps {
  entries: readonly TaxIdDraft[];
  countries: readonly { code: string; name: string }[];
  /** the entry that may not be removed (a US taxpayer's US entry) */
  locked: (entry: TaxIdDraft) => boolean;
  canAdd: boolean;
  problemText: (key: string) => string | undefined;
  onChange(index: number, patch: Partial<TaxIdDraft>): void;
  onAdd(): void;
  onRemove(index: number): void;
}

export function useTinReasonNames(): Record<TinMissingReason, string> {
  const { t } = useLingui();
  return {
    COUNTRY_DOES_NOT_ISSUE: t`The country does not issue tax numbers`,
    CANNOT_OBTAIN: t`The company cannot obtain a tax number`,
    NO_TIN_IS_REQUIRED: t`The country's law does not require a tax number`,
  };
}

/** A tax problem in words (the number's format: the platform's own sentences, with the number's short name). */
export function useTaxProblemWords(): (problem: Problem, countryCode: string) => string {
  const { t } = useLingui();
  return (problem, countryCode) => {
    const name = taxNumberEntry(countryCode).businessShortName;
    const sentence = (code: string): ValidationError => ({ param: 'taxId', code, description: '', params: { name } });
    switch (problem) {
      case 'taxIdFormat':
        return validationMessage(sentence('taxIdCountryFormat'));
      case 'taxIdCheckDigit':
        return validationMessage(sentence('taxIdCheckDigit'));
      case 'duplicateCountry':
        return t`This country is already listed.`;
      case 'usEntryRequired':
        return t`A US taxpayer lists the United States among its tax residences.`;
      default:
        return t`This is required.`;
    }
  };
}

export function BusinessTaxIds({ entries, countries, locked, canAdd, problemText, onChange, onAdd, onRemove }: BusinessTaxIdsProps) {
  const { t } = useLingui();
  const reasons = useTinReasonNames();
  const countryOptions = countries.map((c) => ({ value: c.code, label: c.name }));
  const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;
  return (
    <div className="tax-residences">
      {entries.map((entry, index) => {
        const at = `taxIds.${index}`;
        const row = entry.countryCode ? taxNumberEntry(entry.countryCode) : null;
        const numberLabel = row ? `${row.businessName} (${row.businessShortName})` : t`Tax number`;
        const hasNumber = entry.taxId.trim() !== '';
        const legend = entry.countryCode ? t`Tax residence: ${countryName(entry.countryCode)}` : t`Tax residence ${index + 1}`;
        return (
          <fieldset key={index} className="tax-residence">
            <legend>{legend}</legend>
            {locked(entry) ? (
              <p className="field-hint">{t`The company is a US taxpayer, so the United States is one of its tax residences.`}</p>
            ) : (
              <SelectField
                label={t`Country of tax residence`}
                name={`${at}.countryCode`}
                value={entry.countryCode}
                placeholder={t`Choose a country`}
                options={countryOptions}
                error={problemText(`${at}.countryCode`)}
                onChange={(countryCode) => onChange(index, { countryCode })}
              />
            )}
            <TextField
              label={numberLabel}
              name={`${at}.taxId`}
              value={entry.taxId}
              maxLength={50}
              autoComplete="off"
              hint={row && !row.businessRequired ? t`Optional in this country.` : undefined}
              error={problemText(`${at}.taxId`)}
              onChange={(taxId) => onChange(index, { taxId })}
            />
            {hasNumber ? null : (
              <SelectField
                label={t`No tax number? Tell us why`}
                name={`${at}.tinMissingReason`}
                value={entry.tinMissingReason ?? ''}
                placeholder={t`The company has a tax number`}
                options={TIN_MISSING_REASONS.map((r) => ({ value: r, label: reasons[r] }))}
                error={problemText(`${at}.tinMissingReason`)}
                onChange={(value) => onChange(index, { tinMissingReason: value === '' ? null : (value as TinMissingReason) })}
              />
            )}
            {!hasNumber && entry.tinMissingReason === 'CANNOT_OBTAIN' ? (
              <TextField
                label={t`Why the company cannot obtain one`}
                name={`${at}.tinMissingExplanation`}
                value={entry.tinMissingExplanation}
                maxLength={500}
                error={problemText(`${at}.tinMissingExplanation`)}
                onChange={(tinMissingExplanation) => onChange(index, { tinMissingExplanation })}
              />
            ) : null}
            {locked(entry) || entries.length <= 1 ? null : (
              <Button variant="link" onClick={() => onRemove(index)}>
                {entry.countryCode ? t`Remove ${countryName(entry.countryCode)}` : t`Remove this tax residence`}
              </Button>
            )}
          </fieldset>
        );
      })}
      {canAdd ? (
        <Button variant="secondary" onClick={onAdd}>
          {t`Add another tax residence`}
        </Button>
      ) : null}
    </div>
  );
}
