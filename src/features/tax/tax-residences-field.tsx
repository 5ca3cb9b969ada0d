/**
 * The list of tax residences of a self-certification (document 3 §3 taxIds: countryCode, taxId,
 * tinMissingReason, tinMissingExplanation; §5, §9): each a country and either its tax number,
 * labelled with the country's own name for it from the tax-number table (e.g. "Tax identification
 * number (Steuer-ID)") and checked as it is left (checkTaxNumber), or why there is none. The
 * reasons offered follow the country's row: NO_TIN_IS_REQUIRED only where the row does not require
 * the number; the explanation only for CANNOT_OBTAIN. Shared by the personal and the business
 * certification (`use`). A country can be locked (a US taxpayer's US residence: not removable).
 */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { TaxIdEntry, TinMissingReason } from '../../../api/tax-certification.ts';
import { checkTaxNumberField, type TaxNumberEntry } from '../../../api/tax-numbers.ts';
import type { ValidationError } from '../../../api/envelope.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Button } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { TextField } from '../../ui/text-field.tsx';

/** One residence as the form holds it. */
export interface TaxResidenceRow {
  countryCode: string;
  taxId: string;
  /** the person says they have no number (then a reason) */
  noTin: boolean;
  reason: TinMissingReason | '';
  explanation: string;
}

export const rowOf = (t: TaxIdEntry): TaxResidenceRow => ({
  countryCode: t.countryCode,
  taxId: t.taxId ?? '',
  noTin: !t.taxId && t.tinMissingReason !== null,
  reason: t.tinMissingReason ?? '',
  explanation: t.tinMissingExplanation ?? '',
});
export const entryOf = (r: TaxResidenceRow): TaxIdEntry => ({
  countryCode: r.countryCode,
  taxId: r.noTin ? null : r.taxId.trim() || null,
  tinMissingReason: r.noTin && r.reason ? r.reason : null,
  tinMissingExplanation: r.noTin && r.reason === 'CANNOT_OBTAIN' ? r.explanation.trim() || null : null,
});
export const emptyRow = (): TaxResidenceRow => ({ countryCode: '', taxId: '', noTin: false, reason: '', explanation: '' });

export interface TaxResidencesFieldProps {
  rows: readonly TaxResidenceRow[];
  onChange(rows: TaxResidenceRow[]): void;
  countries: readonly { code: string; name: string }[];
  /** the tax-number table's row of a country */
  rowFor(countryCode: string): TaxNumberEntry;
  use: 'personal' | 'business';
  /** the error of a field by its payload name (taxIds.0.taxId), worded */
  errorOf(param: string): string | undefined;
  /** a country whose residence cannot be removed (and whose country cannot change), with why */
  locked?: { countryCode: string; why: string } | null;
  max?: number;
}

export function TaxResidencesField({ rows, onChange, countries, rowFor, use, errorOf, locked = null, max = 10 }: TaxResidencesFieldProps) {
  const { t } = useLingui();
  // the check as a number is left (the step's submit checks it again)
  const [blurErrors, setBlurErrors] = useState<Record<number, ValidationError | null>>({});
  const set = (i: number, patch: Partial<TaxResidenceRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const remove = (i: number) => onChange(rows.filter((_, j) => j !== i));
  const options = countries.map((c) => ({ value: c.code, label: c.name }));
  const reasonLabels: Record<TinMissingReason, string> = {
    COUNTRY_DOES_NOT_ISSUE: t`The country does not issue tax numbers to its residents`,
    CANNOT_OBTAIN: t`I cannot obtain a tax number`,
    NO_TIN_IS_REQUIRED: t`The country does not require the tax number to be given`,
  };
  return (
    <div className="tax-residences">
      {rows.map((row, i) => {
        const p = (f: string) => `taxIds.${i}.${f}`;
        const entry = row.countryCode ? rowFor(row.countryCode) : null;
        const name = entry ? (use === 'personal' ? entry.personalName : entry.businessName) : t`Tax number`;
        const required = entry ? (use === 'personal' ? entry.personalRequired : entry.businessRequired) : false;
        const isLocked = locked !== null && row.countryCode === locked.countryCode;
        const countryName = countries.find((c) => c.code === row.countryCode)?.name ?? row.countryCode;
        const reasons = (['COUNTRY_DOES_NOT_ISSUE', 'CANNOT_OBTAIN', 'NO_TIN_IS_REQUIRED'] as const).filter((r) => r !== 'NO_TIN_IS_REQUIRED' || !required);
        const blur = blurErrors[i];
        const tinError = errorOf(p('taxId')) ?? (blur ? validationMessage(blur) : undefined);
        return (
          <fieldset key={i} className="tax-residence">
            <legend>{row.countryCode ? t`Tax residence: ${countryName}` : t`Tax residence ${i + 1}`}</legend>
            {isLocked ? (
              <p className="field-hint">{locked.why}</p>
            ) : (
              <SelectField
                label={t`Country of tax residence`}
                name={p('countryCode')}
                value={row.countryCode}
                onChange={(countryCode) => {
                  setBlurErrors((b) => ({ ...b, [i]: null }));
                  set(i, { countryCode, reason: '' });
                }}
                options={options}
                placeholder={t`Choose a country`}
                error={errorOf(p('countryCode'))}
              />
            )}
            {row.countryCode ? (
              <>
                {!row.noTin ? (
                  // the number is checked as focus leaves it (blur bubbles as focusout), as the step's submit checks it again
                  <div
                    onBlur={() => {
                      const r = row.taxId.trim() ? checkTaxNumberField(p('taxId'), row.countryCode, use, row.taxId.trim()) : null;
                      setBlurErrors((b) => ({ ...b, [i]: r && !r.ok ? r.error : null }));
                    }}
                  >
                    <TextField
                      label={name}
                      name={p('taxId')}
                      value={row.taxId}
                      onChange={(taxId) => {
                        setBlurErrors((b) => ({ ...b, [i]: null }));
                        set(i, { taxId });
                      }}
                      hint={required ? t`Required by ${countryName}.` : t`Optional in ${countryName}: give it if you have one.`}
                      error={tinError}
                      autoComplete="off"
                      maxLength={50}
                    />
                  </div>
                ) : null}
                <div className="field-checkbox">
                  <input
                    id={`tax-notin-${i}`}
                    type="checkbox"
                    checked={row.noTin}
                    onChange={(e) => set(i, { noTin: e.currentTarget.checked, ...(e.currentTarget.checked ? {} : { reason: '', explanation: '' }) })}
                  />
                  <label htmlFor={`tax-notin-${i}`}>{t`I have no tax number in ${countryName}`}</label>
                </div>
                {row.noTin ? (
                  <RadioGroup
                    legend={t`Why is there no tax number?`}
                    name={p('tinMissingReason')}
                    value={row.reason}
                    onChange={(reason) => set(i, { reason: reason as TinMissingReason })}
                    options={reasons.map((r) => ({ value: r, label: reasonLabels[r] }))}
                    error={errorOf(p('tinMissingReason'))}
                  />
                ) : null}
                {row.noTin && row.reason === 'CANNOT_OBTAIN' ? (
                  <TextField
                    label={t`Why you cannot obtain it`}
                    name={p('tinMissingExplanation')}
                    value={row.explanation}
                    onChange={(explanation) => set(i, { explanation })}
                    error={errorOf(p('tinMissingExplanation'))}
                    maxLength={500}
                  />
                ) : null}
              </>
            ) : null}
            {!isLocked && rows.length > 1 ? (
              <Button variant="link" size="sm" onClick={() => remove(i)}>
                {row.countryCode ? t`Remove ${countryName}` : t`Remove this residence`}
              </Button>
            ) : null}
          </fieldset>
        );
      })}
      {errorOf('taxIds') ? (
        <p className="field-error" role="alert">
          {errorOf('taxIds')}
        </p>
      ) : null}
      {rows.length < max ? (
        <Button variant="secondary" size="sm" onClick={() => onChange([...rows, emptyRow()])}>
          {t`Add another tax residence`}
        </Button>
      ) : null}
    </div>
  );
}
