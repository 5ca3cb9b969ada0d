/**
 * Creating or replacing an address with its documents (machines/address-edit): the address, the
 * documents that prove it (mainDocument, additionalDocument, relationshipDocument), a review, then
 * saving; a replaced address first asks which cards the change affects and, when some are, says so
 * before anything is sent (machines/address-edit cardWarning). Errors sit on their field, the platform's VF words included; each step's heading takes
 * focus (StepHeading). Reads through address-edit.select.ts; sends events only.
 */
import { useEffect, useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useQuery } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { useLingui } from '@lingui/react/macro';
import { ACCEPTED_DOCUMENT_TYPES } from '../../../api/verification.ts';
import {
  addressEditMachine,
  type AddressEditInput,
  type CardCheckRequest,
  type CardCheckResult,
  type SaveAddressRequest,
  type SaveAddressResult,
} from '../../../machines/address-edit/address-edit.machine.ts';
import {
  ADDRESS_DOCUMENT_KEYS,
  ADDRESS_TYPE_VALUES,
  type AddressDocumentDraft,
  type AddressDocumentKey,
  type AddressDocuments,
  type AddressFieldError,
  type AddressValues,
} from '../../../machines/address-edit/address-edit.rules.ts';
import type { UploadFile } from '../../../machines/document-upload/document-upload.rules.ts';
import { selectAddressEditView } from '../../../machines/address-edit/address-edit.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { checkCards as checkCardsCall, saveAddress } from './actors.ts';
import { accountsQuery } from '../../lib/accounts-query.ts';
import { useAccountLabel } from '../../lib/account-label.ts';
import { useAddressErrorText, useAddressTypeNames } from './messages.ts';
import { addressDocumentTypesQuery } from './queries.ts';
import { RetryAlert, useStepControls } from '../../ui/step-controls.tsx';
import { validationMessage, validationMessages } from '../../lib/validation-messages.ts';

const ACCEPT = ACCEPTED_DOCUMENT_TYPES.join(',');
const fileOf = (file: File): UploadFile => ({ name: file.name, size: file.size, type: file.type, content: file });

interface DraftState {
  typeId: string;
  file: UploadFile | null;
  second: UploadFile | null;
  issuedDate: string;
  expiresDate: string;
}
const emptyDraft: DraftState = { typeId: '', file: null, second: null, issuedDate: '', expiresDate: '' };

export interface AddressEditFlowProps {
  input: AddressEditInput;
  countries: readonly { code: string; name: string }[];
  /** done (true) or canceled (false) */
  onFinished(saved: boolean): void;
  /** the save call (tests provide their own); the real customerAddressCreateOrReplace by default */
  save?: (request: SaveAddressRequest) => Promise<SaveAddressResult>;
  /** the card check (tests provide their own); the real addressReplacementCompatibility by default */
  checkCards?: (request: CardCheckRequest) => Promise<CardCheckResult>;
  /** whose accounts name the cards in the warning */
  actingCustomerId?: number | null;
}

export function AddressEditFlow({ input, countries, onFinished, save = saveAddress, checkCards = checkCardsCall, actingCustomerId = null }: AddressEditFlowProps) {
  const { t, i18n } = useLingui();
  // The calls are read once, when the actor starts.
  const machine = useMemo(
    () =>
      addressEditMachine.provide({
        actors: { saveAddress: fromPromise(({ input: request }) => save(request)), checkCards: fromPromise(({ input: request }) => checkCards(request)) },
      }),
    [], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const actor = useFlowActor(machine, { input });
  const view = useSelector(actor, selectAddressEditView);
  const errorText = useAddressErrorText();
  const accountLabel = useAccountLabel();
  // the cards are named only when a replacement affects some (the warning)
  const accounts = useQuery({ ...accountsQuery(actingCustomerId), enabled: view.cardImpact !== null });
  const typeNames = useAddressTypeNames();
  const [values, setValues] = useState<AddressValues>(view.values);
  const [drafts, setDrafts] = useState<Record<AddressDocumentKey, DraftState>>({ mainDocument: emptyDraft, additionalDocument: emptyDraft, relationshipDocument: emptyDraft });
  const country = values.countryCode.trim().toUpperCase();
  const docTypes = useQuery({ ...addressDocumentTypesQuery(i18n.locale, country), enabled: /^[A-Z]{2}$/.test(country) });
  const types = useMemo(() => (docTypes.data?.customerDocumentCategories ?? []).flatMap((c) => c.customerDocumentTypes), [docTypes.data]);

  useEffect(() => {
    if (view.step === 'done') onFinished(true);
    else if (view.step === 'canceled') onFinished(false);
  }, [view.step]); // eslint-disable-line react-hooks/exhaustive-deps

  const err = (e: AddressFieldError | undefined) => (e ? errorText(e.code, e.error ? validationMessage(e.error) : e.detail) : undefined);
  const set = (field: keyof AddressValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const setDraft = (key: AddressDocumentKey, patch: Partial<DraftState>) => setDrafts((d) => ({ ...d, [key]: { ...d[key], ...patch } }));
  const secondPageOf = (typeId: string) => types.find((ty) => String(ty.id) === typeId)?.secondPage ?? null;
  const documentsOf = (): AddressDocuments => {
    const out: AddressDocuments = {};
    for (const key of ADDRESS_DOCUMENT_KEYS) {
      const d = drafts[key];
      // A document is sent when something of it was given; the checks say what is missing.
      if (d.typeId === '' && d.file === null) continue;
      const draft: AddressDocumentDraft = {
        documentTypeId: Number(d.typeId || 0),
        secondPage: secondPageOf(d.typeId),
        file: d.file ?? { name: '', size: 0, type: '', content: new Blob([]) },
        second: d.second,
        issuedDate: d.issuedDate,
        expiresDate: d.expiresDate,
      };
      out[key] = draft;
    }
    return out;
  };
  const { submit, back, cancel } = useStepControls(actor, view);
  const otherErrors =
    view.saveError && view.step !== 'failed' ? (
      <Alert tone="error" title={t`The address was not saved`}>
        {view.saveError.code === 'refused' && view.saveError.detail ? <p>{view.saveError.errors?.length ? validationMessages(view.saveError.errors) : view.saveError.detail}</p> : null}
      </Alert>
    ) : null;
  const documentTitles: Record<AddressDocumentKey, string> = {
    mainDocument: view.isNew ? t`Proof of address` : t`Proof of address (optional)`,
    additionalDocument: t`Additional document (optional)`,
    relationshipDocument: t`Proof of relationship (optional: when the address is in another person's name)`,
  };
  const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;

  switch (view.step) {
    case 'form':
      return (
        // Keyed per step: a new step is a new form, so its heading mounts and takes focus.
        <form key="form" className="profile-panel" onSubmit={submit(() => actor.send({ type: 'FORM.SUBMIT', values }))} noValidate>
          <StepHeading level={2}>{view.isNew ? t`New address` : t`Change the address`}</StepHeading>
          {otherErrors}
          <SelectField
            label={t`Address type`}
            name="addressType"
            value={values.addressType}
            onChange={set('addressType')}
            options={ADDRESS_TYPE_VALUES.map((v) => ({ value: v, label: typeNames[v] }))}
            error={err(view.fieldErrors.addressType)}
          />
          <TextField label={t`Street and number`} name="address1" value={values.address1} onChange={set('address1')} autoComplete="address-line1" required maxLength={200} error={err(view.fieldErrors.address1)} />
          <TextField label={t`Apartment, building (optional)`} name="address2" value={values.address2} onChange={set('address2')} autoComplete="address-line2" maxLength={200} error={err(view.fieldErrors.address2)} />
          <TextField label={t`City`} name="city" value={values.city} onChange={set('city')} autoComplete="address-level2" required maxLength={100} error={err(view.fieldErrors.city)} />
          <TextField label={t`Postal code`} name="postalCode" value={values.postalCode} onChange={set('postalCode')} autoComplete="postal-code" required maxLength={20} error={err(view.fieldErrors.postalCode)} />
          <TextField label={t`State or region (optional)`} name="stateName" value={values.stateName} onChange={set('stateName')} autoComplete="address-level1" maxLength={100} error={err(view.fieldErrors.stateName)} />
          <SelectField
            label={t`Country`}
            name="countryCode"
            value={values.countryCode}
            onChange={set('countryCode')}
            placeholder={t`Choose a country`}
            options={countries.map((c) => ({ value: c.code, label: c.name }))}
            error={err(view.fieldErrors.countryCode)}
          />
          <div className="actions">
            <Button type="submit">{t`Continue`}</Button>
            {cancel}
          </div>
        </form>
      );
    case 'documents':
      return (
        <form key="documents" className="profile-panel" onSubmit={submit(() => actor.send({ type: 'DOCUMENTS.SUBMIT', documents: documentsOf() }))} noValidate>
          <StepHeading level={2}>{t`Documents for the address`}</StepHeading>
          <p>{t`A utility bill, bank statement or similar, at most 3 months old, showing your name and this address. JPEG, PNG or PDF, up to 10 MB.`}</p>
          {otherErrors}
          {ADDRESS_DOCUMENT_KEYS.map((key) => {
            const d = drafts[key];
            const secondPage = secondPageOf(d.typeId);
            return (
              <fieldset key={key} className="profile-fieldset">
                <legend>{documentTitles[key]}</legend>
                <SelectField
                  label={t`Document type`}
                  name={`${key}.documentTypeId`}
                  value={d.typeId}
                  onChange={(typeId) => setDraft(key, { typeId })}
                  placeholder={t`Choose a document type`}
                  options={types.map((ty) => ({ value: String(ty.id), label: ty.name }))}
                  error={err(view.fieldErrors[`${key}.documentTypeId`])}
                />
                <Field label={secondPage ? t`Front page` : t`Document file`} error={err(view.fieldErrors[`${key}.file`])}>
                  {(control) => (
                    <input
                      {...control}
                      type="file"
                      name={key}
                      accept={ACCEPT}
                      onChange={(e) => {
                        const file = e.currentTarget.files?.[0];
                        if (file) setDraft(key, { file: fileOf(file) });
                      }}
                    />
                  )}
                </Field>
                {d.file ? <p>{t`Chosen: ${d.file.name}`}</p> : null}
                {secondPage ? (
                  <>
                    <Field label={secondPage === 'back' ? t`Back side` : t`Registration stamp page`} error={err(view.fieldErrors[`${key}.second`])}>
                      {(control) => (
                        <input
                          {...control}
                          type="file"
                          name={`${key}.${secondPage}`}
                          accept={ACCEPT}
                          onChange={(e) => {
                            const file = e.currentTarget.files?.[0];
                            if (file) setDraft(key, { second: fileOf(file) });
                          }}
                        />
                      )}
                    </Field>
                    {d.second ? <p>{t`Chosen: ${d.second.name}`}</p> : null}
                  </>
                ) : null}
                <TextField label={t`Issue date`} name={`${key}.issuedDate`} type="date" value={d.issuedDate} onChange={(issuedDate) => setDraft(key, { issuedDate })} error={err(view.fieldErrors[`${key}.issuedDate`])} />
                <TextField
                  label={t`Expiry date (optional)`}
                  name={`${key}.expiresDate`}
                  type="date"
                  value={d.expiresDate}
                  onChange={(expiresDate) => setDraft(key, { expiresDate })}
                  error={err(view.fieldErrors[`${key}.expiresDate`])}
                />
              </fieldset>
            );
          })}
          <div className="actions">
            <Button type="submit">{t`Continue`}</Button>
            {back}
            {cancel}
          </div>
        </form>
      );
    case 'cardWarning': {
      const impact = view.cardImpact ?? { toBeCanceled: [], shippedToOldAddress: [] };
      const cardName = (accountId: number) => {
        const account = accounts.data?.find((a) => a.accountId === accountId);
        return account ? accountLabel(account) : t`Card ${accountId}`;
      };
      return (
        <div key="cards" className="profile-panel">
          <StepHeading level={2}>{t`Your cards and this change`}</StepHeading>
          {impact.toBeCanceled.length > 0 ? (
            <Alert tone="warning" title={t`These cards will be canceled`}>
              <p>{t`Our cards are issued per country, and these are not offered in ${countryName(view.values.countryCode.trim().toUpperCase())}. Saving the address cancels them at once; any money on them goes back to your account in the same currency.`}</p>
              <ul>
                {impact.toBeCanceled.map((id) => (
                  <li key={id}>{cardName(id)}</li>
                ))}
              </ul>
            </Alert>
          ) : null}
          {impact.shippedToOldAddress.length > 0 ? (
            <Alert tone="info" title={t`These cards will still go to your old address`}>
              <p>{t`They are already being made and the card maker has the old address. Make sure someone can receive them there.`}</p>
              <ul>
                {impact.shippedToOldAddress.map((id) => (
                  <li key={id}>{cardName(id)}</li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <div className="actions">
            <Button onClick={() => actor.send({ type: 'CONFIRM' })}>{t`Save the address anyway`}</Button>
            {back}
            {cancel}
          </div>
        </div>
      );
    }
    case 'review':
    case 'checkingCards':
    case 'saving':
    case 'failed':
      return (
        <div key="review" className="profile-panel">
          <StepHeading level={2}>{t`Check and save`}</StepHeading>
          <dl className="facts">
            <dt>{t`Address type`}</dt>
            <dd>{typeNames[view.values.addressType]}</dd>
            <dt>{t`Address`}</dt>
            <dd>{[view.values.address1, view.values.address2, `${view.values.postalCode} ${view.values.city}`, view.values.stateName, countryName(view.values.countryCode.toUpperCase())].filter((x) => x.trim() !== '').join(', ')}</dd>
            {ADDRESS_DOCUMENT_KEYS.map((key) => {
              const d = view.documents[key];
              return d ? (
                <div key={key}>
                  <dt>{documentTitles[key]}</dt>
                  <dd>{[types.find((ty) => ty.id === d.documentTypeId)?.name, d.file.name, d.second?.name].filter(Boolean).join(', ')}</dd>
                </div>
              ) : null;
            })}
          </dl>
          {view.step === 'failed' && view.saveError ? (
            <RetryAlert actor={actor} title={t`The address was not saved`}>
              <p>{view.saveError.code === 'network' ? t`The connection failed. Try again.` : (view.saveError.errors?.length ? validationMessages(view.saveError.errors) : (view.saveError.detail ?? t`Unknown error`))}</p>
            </RetryAlert>
          ) : null}
          <div className="actions">
            {view.step === 'failed' ? null : (
              <Button busy={view.busy} onClick={() => actor.send({ type: 'SAVE' })}>
                {t`Save the address`}
              </Button>
            )}
            {back}
            {cancel}
          </div>
        </div>
      );
    case 'done':
    case 'canceled':
      return null;
  }
}
