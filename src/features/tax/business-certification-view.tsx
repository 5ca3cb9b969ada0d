/**
 * The company's FATCA/CRS self-certification (/self-certification-business, document 3 §2, §3,
 * §5): a thin view of machines/business-self-certification. One step at a time, each with its
 * heading taking the focus (StepHeading); the questions branch as the chart does; the review lists
 * the forms the answers end in; saving and signing send the browser to the signing page; the
 * states after it (pending review, validated, rejected, forms not signed) with what to do next. A
 * user without full rights sees the state read-only with a note.
 */
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { ValidationError } from '../../../api/envelope.ts';
import { ENTITY_TYPES, GIIN_MISSING_REASONS, type EntityType, type GiinMissingReason, type TaxFormKind, type TinMissingReason } from '../../../api/tax-certification.ts';
import { taxNumberEntry } from '../../../api/tax-numbers.ts';
import type { DocumentState } from '../../../api/verification.ts';
import {
  MAX_TAX_IDS,
  type BusinessSelfCertificationMachine,
  type CompanyAddressOption,
  type Problem,
  type ScalarAnswers,
} from '../../../machines/business-self-certification/business-self-certification.machine.ts';
import {
  errorsOn,
  isShownOnField,
  progressOf,
  selectView,
  type CertificationStep,
  type CertificationView,
} from '../../../machines/business-self-certification/business-self-certification.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { describeFailure } from '../../lib/request.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { CheckboxField, RadioGroup } from '../../ui/choice-fields.tsx';
import { ProgressSteps } from '../../ui/progress-steps.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { TaxResidencesField } from './tax-residences-field.tsx';
import { createBusinessCertificationLogic, type BusinessCertificationDeps } from './business-actors.ts';
import '../transfers/transfers.css';
import './tax.css';
import './business-certification.css';

type CertActor = ActorRefFrom<BusinessSelfCertificationMachine>;

/**
 * Saves a signed form (its document's url, a GET with the session's token: src/features/history/download.ts);
 * the route passes one, the tests none (no download offered).
 */
export type DownloadForm = (url: string, fileName: string) => Promise<{ ok: true } | { ok: false; detail: string | null }>;

/** The route's entry: the machine with the real actors. */
export function BusinessCertificationPage({ deps, canManage, download }: { deps: BusinessCertificationDeps; canManage: boolean; download?: DownloadForm }) {
  const logic = useMemo(() => createBusinessCertificationLogic(deps), [deps]);
  const actor = useFlowActor(logic, { input: { canManage } });
  return <BusinessCertificationView actor={actor} download={download} />;
}

export function useFormNames(): Record<TaxFormKind, string> {
  const { t } = useLingui();
  return {
    w9: t`Form W-9: the company's US taxpayer identification number`,
    w8Ben: t`Form W-8BEN: foreign status of an individual`,
    w8BenE: t`Form W-8BEN-E: the company's foreign status for US tax`,
    taxResidencySelfCertification: t`Tax residency self-certification (CRS)`,
  };
}

function useEntityNames(): Record<EntityType, { label: string; hint: string }> {
  const { t } = useLingui();
  return {
    'financial-institution': {
      label: t`Financial institution`,
      hint: t`A bank, custodian, broker, insurer or similar that holds financial assets for others.`,
    },
    investment: { label: t`Investment entity`, hint: t`Its business is mainly investing, reinvesting or trading in financial assets.` },
    general: { label: t`Other business (active entity)`, hint: t`A trading or operating company, a non-profit, or any other entity.` },
  };
}

function useTinReasonNames(): Record<TinMissingReason, string> {
  const { t } = useLingui();
  return {
    COUNTRY_DOES_NOT_ISSUE: t`The country does not issue tax numbers`,
    CANNOT_OBTAIN: t`The company cannot obtain a tax number`,
    NO_TIN_IS_REQUIRED: t`The country's law does not require a tax number`,
  };
}

/** A tax residence's problem in words (the number's format: the platform's own sentences, with the number's short name). */
function useTaxProblemWords(): (problem: Problem, countryCode: string) => string {
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

function useGiinReasonNames(): Record<GiinMissingReason, string> {
  const { t } = useLingui();
  return {
    APPLIED_FOR: t`Applied for, not received yet`,
    SPONSORED_ENTITY: t`A sponsored entity (the sponsor's GIIN applies)`,
    NOT_REQUIRED: t`Not required for this entity`,
  };
}

function useStateBadge(): (state: DocumentState) => { tone: BadgeTone; text: string } {
  const { t } = useLingui();
  return (state) => {
    switch (state) {
      case 'validated':
        return { tone: 'success', text: t`Validated` };
      case 'expiredSoon':
        return { tone: 'warning', text: t`Expires soon` };
      case 'pending':
        return { tone: 'info', text: t`In review` };
      case 'rejected':
        return { tone: 'danger', text: t`Rejected` };
      case 'expired':
        return { tone: 'danger', text: t`Expired` };
      case 'notRequired':
        return { tone: 'neutral', text: t`Not required` };
      default:
        return { tone: 'warning', text: t`Not signed` };
    }
  };
}

function addressLine(a: CompanyAddressOption): string {
  return [a.address1, a.address2, `${a.postalCode} ${a.city}`.trim(), a.countryCode].filter((part) => part.trim() !== '').join(', ');
}

const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'yes' : 'no');

export function BusinessCertificationView({ actor, download }: { actor: CertActor; download?: DownloadForm }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectView);
  const titles: Record<CertificationStep, string> = {
    loading: t`Tax self-certification`,
    loadFailed: t`Tax self-certification`,
    notStarted: t`Tax self-certification not given yet`,
    unsigned: view.ctx.canManage ? t`Sign your tax forms` : t`The tax forms are not signed yet`,
    pendingReview: t`Your tax certification is in review`,
    validated: t`Your tax certification is complete`,
    rejected: t`Your tax certification needs attention`,
    saving: t`Review your answers`,
    signing: t`Preparing your forms`,
    signingOpened: t`Opening the signing page`,
    company: t`About the company`,
    entityType: t`What kind of entity is the company?`,
    financialInstitution: t`The company's GIIN`,
    investment: t`Who manages the company's investments?`,
    publiclyTraded: t`Is the company publicly traded?`,
    relatedCompany: t`Does the company belong to a publicly traded group?`,
    passiveIncome: t`The company's income`,
    usStatus: t`US tax status`,
    addresses: t`The company's addresses`,
    taxIds: t`Where the company pays tax`,
    controllingPersons: t`Controlling persons`,
    review: t`Review your answers`,
  };
  const progress = progressOf(view.step);
  return (
    <div className="transfer-page tax-certification-page">
      {progress ? (
        <ProgressSteps
          label={t`Your tax self-certification`}
          doneText={t`done`}
          current={progress}
          steps={[
            { id: 'company', label: t`Company` },
            { id: 'entity', label: t`Entity` },
            { id: 'usStatus', label: t`US status` },
            { id: 'addresses', label: t`Addresses` },
            { id: 'taxIds', label: t`Tax numbers` },
            ...(view.passive ? [{ id: 'controllingPersons', label: t`Persons` }] : []),
            { id: 'review', label: t`Review` },
          ]}
        />
      ) : null}
      {/* a new heading for each step: it takes the focus */}
      <StepHeading key={titles[view.step]}>{titles[view.step]}</StepHeading>
      <StepBody actor={actor} view={view} download={download} />
    </div>
  );
}

function StepBody({ actor, view, download }: { actor: CertActor; view: CertificationView; download?: DownloadForm }) {
  const { t } = useLingui();
  switch (view.step) {
    case 'loading':
      return <Spinner label={t`Loading your company's tax certification`} />;
    case 'loadFailed':
      return (
        <>
          <Alert tone="error" title={t`We could not load the company's tax certification.`}>
            {view.ctx.loadFailure?.code === 'failed' ? <p>{describeFailure(view.ctx.loadFailure.failure)}</p> : null}
          </Alert>
          <Button onClick={() => actor.send({ type: 'LOAD.RETRY' })}>{t`Try again`}</Button>
        </>
      );
    case 'signing':
      return <Spinner label={t`Preparing your forms to sign`} />;
    case 'signingOpened':
      return (
        <>
          <p>{t`Your forms are ready. The signing page opens now; once you have signed, you come back here.`}</p>
          {view.ctx.signUrl ? (
            <p>
              <a className="btn btn-secondary" href={view.ctx.signUrl}>
                {t`Open the signing page`}
              </a>
            </p>
          ) : null}
        </>
      );
    case 'notStarted':
    case 'unsigned':
    case 'pendingReview':
    case 'validated':
    case 'rejected':
      return <StatusStep actor={actor} view={view} download={download} />;
    case 'review':
    case 'saving':
      return <ReviewStep actor={actor} view={view} />;
    default:
      return <QuestionStep actor={actor} view={view} />;
  }
}

function StatusStep({ actor, view, download }: { actor: CertActor; view: CertificationView; download?: DownloadForm }) {
  const { t } = useLingui();
  const forms = useFormNames();
  const badge = useStateBadge();
  // a download is a plain read beside the flow: its progress and failure are the page's own
  const [downloading, setDownloading] = useState<string | null>(null);
  const [downloadFailed, setDownloadFailed] = useState<{ detail: string | null } | null>(null);
  const save = async (url: string, kind: TaxFormKind) => {
    if (!download) return;
    setDownloading(kind);
    setDownloadFailed(null);
    const result = await download(url, `${kind}.pdf`);
    setDownloading(null);
    if (!result.ok) setDownloadFailed({ detail: result.detail });
  };
  const intro: Record<string, string> = {
    notStarted: t`The bank needs the company's FATCA and CRS tax status. A user with full access to the company gives it once, and signs the forms online.`,
    unsigned: view.ctx.canManage
      ? t`Your answers are saved. Sign the forms they end in to finish the certification.`
      : t`The company's answers are saved; the forms they end in are not signed yet.`,
    pendingReview: t`Your signed forms are with the bank for review. You do not need to do anything now; we will let you know if anything is missing.`,
    validated: t`The bank has validated your forms. Update your answers if the company's tax status changes: you then sign the forms again.`,
    rejected: t`The bank could not accept a signed form. Check your answers and sign the forms again.`,
  };
  const failure = view.ctx.failure;
  return (
    <>
      <p>{intro[view.step]}</p>
      {failure ? (
        <Alert tone="error" title={t`The forms could not be prepared for signing.`}>
          <p>{failure.code === 'failed' ? describeFailure(failure.failure) : t`Network error. Check your connection and try again.`}</p>
        </Alert>
      ) : null}
      {view.documents.length > 0 ? (
        <Card title={t`Your forms`} as="section" className="tax-forms-card">
          <ul className="tax-business-forms">
            {view.documents.map((d) => {
              const b = badge(d.state);
              return (
                <li key={d.kind}>
                  <span>
                    {forms[d.kind]}
                    {d.url && download ? (
                      <Button variant="link" size="sm" busy={downloading === d.kind} onClick={() => void save(d.url!, d.kind)} aria-label={t`Download ${forms[d.kind]}`}>
                        {t`Download`}
                      </Button>
                    ) : null}
                  </span>
                  <Badge tone={b.tone}>{b.text}</Badge>
                </li>
              );
            })}
          </ul>
        </Card>
      ) : null}
      {downloadFailed ? (
        <Alert tone="error" title={t`The signed form could not be downloaded.`}>
          {downloadFailed.detail ? <p>{downloadFailed.detail}</p> : null}
        </Alert>
      ) : null}
      {view.ctx.canManage ? (
        <ButtonGroup stackOnMobile>
          {view.canSign ? <Button onClick={() => actor.send({ type: 'SIGN' })}>{view.step === 'rejected' ? t`Sign the forms again` : t`Sign the forms`}</Button> : null}
          {view.canEdit ? (
            <Button variant={view.canSign ? 'secondary' : 'primary'} onClick={() => actor.send({ type: 'EDIT' })}>
              {view.step === 'validated' ? t`Update your answers` : t`Change your answers`}
            </Button>
          ) : null}
        </ButtonGroup>
      ) : (
        <Alert tone="info" title={t`View only`}>
          <p>{t`Only a user with full access to the company can give or change its tax certification and sign the forms.`}</p>
        </Alert>
      )}
    </>
  );
}

/** The words of a step's problem or the platform's error on a field. */
function useFieldError(view: CertificationView): (key: string) => string | undefined {
  const { t } = useLingui();
  const taxWords = useTaxProblemWords();
  const words = (problem: Problem, key: string): string => {
    if (key.startsWith('taxIds')) {
      const index = Number(key.split('.')[1]);
      return taxWords(problem, view.ctx.answers.taxIds[index]?.countryCode ?? '');
    }
    switch (problem) {
      case 'giinFormat':
        return t`Enter the GIIN as on the IRS list: 19 characters like 98Q96B.00000.LE.250.`;
      case 'noPerson':
        return t`Choose at least one controlling person.`;
      default:
        return t`This is required.`;
    }
  };
  return (key) => {
    const platform = errorsOn(view.errors, key)[0];
    if (platform) return validationMessage(platform);
    const problem = view.problems[key];
    return problem ? words(problem, key) : undefined;
  };
}

function QuestionStep({ actor, view }: { actor: CertActor; view: CertificationView }) {
  const { t } = useLingui();
  const a = view.ctx.answers;
  const error = useFieldError(view);
  const answer = (patch: Partial<ScalarAnswers>) => actor.send({ type: 'ANSWER', patch });
  const yesNoOptions = [
    { value: 'yes', label: t`Yes` },
    { value: 'no', label: t`No` },
  ];
  const bool = (value: string) => value === 'yes';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'STEP.CONTINUE' });
  };
  const countries = view.ctx.countries.map((c) => ({ value: c.code, label: c.name }));
  // the platform's errors on no field the form shows are listed above it
  const stray = view.errors.filter((e) => !isShownOnField(e.param));
  let fields: ReactNode;
  switch (view.step) {
    case 'company':
      fields = (
        <>
          <p>{t`The bank asks every business customer for its FATCA and CRS tax status. It takes about five minutes; you sign the forms online at the end.`}</p>
          <TextField label={t`Company name`} name="name" value={a.name} maxLength={200} autoComplete="organization" error={error('name')} onChange={(name) => answer({ name })} />
          <SelectField
            label={t`Country of registration`}
            name="registrationCountryCode"
            value={a.registrationCountryCode}
            placeholder={t`Choose a country`}
            options={countries}
            error={error('registrationCountryCode')}
            onChange={(registrationCountryCode) => answer({ registrationCountryCode })}
          />
        </>
      );
      break;
    case 'entityType':
      fields = <EntityTypeField view={view} error={error} answer={answer} />;
      break;
    case 'financialInstitution':
      fields = <GiinFields view={view} error={error} answer={answer} yesNoOptions={yesNoOptions} />;
      break;
    case 'investment':
      fields = (
        <RadioGroup
          legend={t`Is the company managed by a financial institution?`}
          hint={t`For example, a fund whose investments a bank or an asset manager makes for it.`}
          name="isManagedByFinancialInstitution"
          inline
          value={yesNo(a.isManagedByFinancialInstitution)}
          options={yesNoOptions}
          error={error('isManagedByFinancialInstitution')}
          onChange={(v) => answer({ isManagedByFinancialInstitution: bool(v) })}
        />
      );
      break;
    case 'publiclyTraded':
      fields = (
        <>
          <RadioGroup
            legend={t`Are the company's shares regularly traded on an established securities market?`}
            name="isPubliclyTraded"
            inline
            value={yesNo(a.isPubliclyTraded)}
            options={yesNoOptions}
            error={error('isPubliclyTraded')}
            onChange={(v) => answer({ isPubliclyTraded: bool(v) })}
          />
          {a.isPubliclyTraded === true ? (
            <>
              <TextField
                label={t`Securities market`}
                hint={t`For example, New York Stock Exchange.`}
                name="companySecurityMarket"
                value={a.companySecurityMarket}
                maxLength={100}
                error={error('companySecurityMarket')}
                onChange={(companySecurityMarket) => answer({ companySecurityMarket })}
              />
              <TextField
                label={t`Ticker symbol`}
                name="companyTicket"
                value={a.companyTicket}
                maxLength={20}
                autoComplete="off"
                error={error('companyTicket')}
                onChange={(companyTicket) => answer({ companyTicket })}
              />
            </>
          ) : null}
        </>
      );
      break;
    case 'relatedCompany':
      fields = (
        <>
          <RadioGroup
            legend={t`Is the company part of a group whose parent is publicly traded?`}
            hint={t`A related entity: more than half of it is held by a publicly traded company, or both are held by the same company.`}
            name="isOwnPubliclyTradedCompany"
            inline
            value={yesNo(a.isOwnPubliclyTradedCompany)}
            options={yesNoOptions}
            error={error('isOwnPubliclyTradedCompany')}
            onChange={(v) => answer({ isOwnPubliclyTradedCompany: bool(v) })}
          />
          {a.isOwnPubliclyTradedCompany === true ? (
            <>
              <TextField
                label={t`Name of the publicly traded company`}
                name="companyOwnedByYou.name"
                value={a.ownedName}
                maxLength={200}
                error={error('companyOwnedByYou.name')}
                onChange={(ownedName) => answer({ ownedName })}
              />
              <TextField
                label={t`Its securities market`}
                name="companyOwnedByYou.market"
                value={a.ownedMarket}
                maxLength={100}
                error={error('companyOwnedByYou.market')}
                onChange={(ownedMarket) => answer({ ownedMarket })}
              />
              <TextField
                label={t`Its ticker symbol`}
                name="companyOwnedByYou.ticket"
                value={a.ownedTicket}
                maxLength={20}
                autoComplete="off"
                error={error('companyOwnedByYou.ticket')}
                onChange={(ownedTicket) => answer({ ownedTicket })}
              />
            </>
          ) : null}
        </>
      );
      break;
    case 'passiveIncome':
      fields = (
        <RadioGroup
          legend={t`Is more than half of the company's income passive?`}
          hint={t`Passive income is dividends, interest, rents, royalties and similar income not from the company's own trade. If so, we ask who controls the company.`}
          name="isEarnPassiveIncome"
          inline
          value={yesNo(a.isEarnPassiveIncome)}
          options={yesNoOptions}
          error={error('isEarnPassiveIncome')}
          onChange={(v) => answer({ isEarnPassiveIncome: bool(v) })}
        />
      );
      break;
    case 'usStatus':
      fields = (
        <>
          <RadioGroup
            legend={t`Is the company a US taxpayer?`}
            hint={t`A company incorporated in the United States, or otherwise taxed there as a US person.`}
            name="isUSTaxPayer"
            inline
            value={yesNo(a.isUSTaxPayer)}
            options={yesNoOptions}
            error={error('isUSTaxPayer')}
            onChange={(v) => answer({ isUSTaxPayer: bool(v) })}
          />
          <RadioGroup
            legend={t`Is the company a disregarded entity for US tax?`}
            hint={t`An entity with a single owner that the US does not tax separately from its owner.`}
            name="isDisregardedEntity"
            inline
            value={yesNo(a.isDisregardedEntity)}
            options={yesNoOptions}
            error={error('isDisregardedEntity')}
            onChange={(v) => answer({ isDisregardedEntity: bool(v) })}
          />
        </>
      );
      break;
    case 'addresses': {
      const options = view.ctx.addresses.map((x) => ({ value: String(x.addressId), label: addressLine(x) }));
      fields =
        options.length === 0 ? (
          <Alert tone="warning" title={t`The company has no address on record yet.`}>
            <p>{t`Add the company's address on its profile first, then come back.`}</p>
          </Alert>
        ) : (
          <>
            <RadioGroup
              legend={t`Principal place of business`}
              name="placeOfBusinessAddressId"
              value={a.placeOfBusinessAddressId === null ? '' : String(a.placeOfBusinessAddressId)}
              options={options}
              error={error('placeOfBusinessAddressId')}
              onChange={(v) => answer({ placeOfBusinessAddressId: Number(v) })}
            />
            <RadioGroup
              legend={t`Registered address`}
              name="registeredAddressId"
              value={a.registeredAddressId === null ? '' : String(a.registeredAddressId)}
              options={options}
              error={error('registeredAddressId')}
              onChange={(v) => answer({ registeredAddressId: Number(v) })}
            />
          </>
        );
      break;
    }
    case 'taxIds':
      fields = (
        <>
          <p>{t`List every country where the company is resident for tax, with its tax number there.`}</p>
          <TaxResidencesField
            rows={a.taxIds}
            onChange={(taxIds) => actor.send({ type: 'TAX_IDS.CHANGE', taxIds })}
            countries={view.ctx.countries}
            rowFor={taxNumberEntry}
            use="business"
            errorOf={error}
            locked={a.isUSTaxPayer === true ? { countryCode: 'US', why: t`The company is a US taxpayer, so the United States is one of its tax residences.` } : null}
            max={MAX_TAX_IDS}
          />
        </>
      );
      break;
    case 'controllingPersons':
      fields = <ControllingPersons actor={actor} view={view} error={error} />;
      break;
  }
  return (
    <form className="tax-step tax-business-step" onSubmit={submit} noValidate>
      {stray.length > 0 ? (
        <Alert tone="error" title={t`Please correct the answers below.`}>
          {stray.map((e, i) => (
            <p key={i}>{validationMessage(e)}</p>
          ))}
        </Alert>
      ) : null}
      {fields}
      <ButtonGroup stackOnMobile>
        <Button type="submit">{t`Continue`}</Button>
        {!view.canBack ? null : (
          <Button variant="secondary" onClick={() => actor.send({ type: 'STEP.BACK' })}>
            {t`Back`}
          </Button>
        )}
      </ButtonGroup>
    </form>
  );
}

type FieldProps = { view: CertificationView; error: (key: string) => string | undefined; answer: (patch: Partial<ScalarAnswers>) => void };

function EntityTypeField({ view, error, answer }: FieldProps) {
  const { t } = useLingui();
  const names = useEntityNames();
  return (
    <RadioGroup
      legend={t`Entity type`}
      hint={t`As the company would describe itself for FATCA and CRS.`}
      name="entityType"
      value={view.ctx.answers.entityType ?? ''}
      options={ENTITY_TYPES.map((type) => ({ value: type, label: names[type].label, hint: names[type].hint }))}
      error={error('entityType')}
      onChange={(v) => answer({ entityType: v as EntityType })}
    />
  );
}

function GiinFields({ view, error, answer, yesNoOptions }: FieldProps & { yesNoOptions: { value: string; label: string }[] }) {
  const { t } = useLingui();
  const reasons = useGiinReasonNames();
  const a = view.ctx.answers;
  const hasGiin = a.giin.trim() !== '';
  return (
    <>
      <TextField
        label={t`Global Intermediary Identification Number (GIIN)`}
        hint={t`As on the IRS FFI list, for example 98Q96B.00000.LE.250.`}
        name="giin"
        value={a.giin}
        maxLength={19}
        autoComplete="off"
        error={error('giin')}
        onChange={(giin) => answer({ giin })}
      />
      {hasGiin ? null : (
        <SelectField
          label={t`No GIIN? Tell us why`}
          name="giinMissingReason"
          value={a.giinMissingReason ?? ''}
          placeholder={t`The company has a GIIN`}
          options={GIIN_MISSING_REASONS.map((r) => ({ value: r, label: reasons[r] }))}
          error={error('giinMissingReason')}
          onChange={(v) => answer({ giinMissingReason: v === '' ? null : (v as GiinMissingReason) })}
        />
      )}
      <RadioGroup
        legend={t`Does the company hold financial assets for the account of others?`}
        name="isUsingClientFunds"
        inline
        value={yesNo(a.isUsingClientFunds)}
        options={yesNoOptions}
        error={error('isUsingClientFunds')}
        onChange={(v) => answer({ isUsingClientFunds: v === 'yes' })}
      />
    </>
  );
}

function ControllingPersons({ actor, view, error }: { actor: CertActor; view: CertificationView; error: (key: string) => string | undefined }) {
  const { t } = useLingui();
  const chosen = view.ctx.answers.controllingPersons;
  const countries = view.ctx.countries.map((c) => ({ value: c.code, label: c.name }));
  const roleWords = { director: t`Director`, shareholder: t`Shareholder` };
  if (view.ctx.people.length === 0)
    return (
      <Alert tone="warning" title={t`The company has no shareholder or director who is a person on record.`}>
        <p>{t`Add them on the company's pages first, then come back.`}</p>
      </Alert>
    );
  return (
    <>
      <p>{t`A passive entity names the people who control it: choose them from the company's shareholders and directors, and give where each is resident for tax.`}</p>
      <fieldset className="controlling-persons" aria-describedby={error('controllingPersons') ? 'controlling-persons-error' : undefined}>
        <legend>{t`Who controls the company`}</legend>
        {error('controllingPersons') ? (
          <p id="controlling-persons-error" className="field-error">
            {error('controllingPersons')}
          </p>
        ) : null}
        {view.ctx.people.map((person) => {
          const index = chosen.findIndex((p) => p.representativeId === person.representativeId);
          const roles = person.roles.map((r) => roleWords[r]).join(', ');
          return (
            <div key={person.representativeId} className="controlling-person">
              <CheckboxField
                label={person.name}
                hint={roles || undefined}
                checked={index >= 0}
                onChange={() => actor.send({ type: 'PERSON.TOGGLE', representativeId: person.representativeId })}
              />
              {index >= 0 ? (
                <SelectField
                  label={t`Tax residence of ${person.name}`}
                  name={`controllingPersons.${index}.taxResidenceCountryCode`}
                  value={chosen[index]!.taxResidenceCountryCode}
                  placeholder={t`Choose a country`}
                  options={countries}
                  error={error(`controllingPersons.${index}.taxResidenceCountryCode`)}
                  onChange={(countryCode) => actor.send({ type: 'PERSON.COUNTRY', representativeId: person.representativeId, countryCode })}
                />
              ) : null}
            </div>
          );
        })}
      </fieldset>
    </>
  );
}

function ReviewStep({ actor, view }: { actor: CertActor; view: CertificationView }) {
  const { t } = useLingui();
  const forms = useFormNames();
  const entity = useEntityNames();
  const giinReasons = useGiinReasonNames();
  const tinReasons = useTinReasonNames();
  const a = view.ctx.answers;
  const country = (code: string) => view.ctx.countries.find((c) => c.code === code)?.name ?? code;
  const address = (id: number | null) => {
    const found = view.ctx.addresses.find((x) => x.addressId === id);
    return found ? addressLine(found) : '';
  };
  const yes = (value: boolean | null) => (value ? t`Yes` : t`No`);
  const rows: [string, string][] = [
    [t`Company name`, a.name],
    [t`Country of registration`, country(a.registrationCountryCode)],
    [t`Entity type`, a.entityType ? entity[a.entityType].label : ''],
  ];
  if (a.entityType === 'investment') rows.push([t`Managed by a financial institution`, yes(a.isManagedByFinancialInstitution)]);
  if (view.asksGiin) {
    rows.push([t`GIIN`, a.giin.trim() ? a.giin.trim().toUpperCase() : a.giinMissingReason ? giinReasons[a.giinMissingReason] : '']);
    rows.push([t`Holds financial assets for others`, yes(a.isUsingClientFunds)]);
  }
  if (a.entityType === 'general') {
    rows.push([t`Publicly traded`, a.isPubliclyTraded ? `${t`Yes`}: ${a.companySecurityMarket}, ${a.companyTicket}` : t`No`]);
    if (a.isPubliclyTraded === false)
      rows.push([t`Part of a publicly traded group`, a.isOwnPubliclyTradedCompany ? `${t`Yes`}: ${a.ownedName} (${a.ownedMarket}, ${a.ownedTicket})` : t`No`]);
    if (a.isPubliclyTraded === false && a.isOwnPubliclyTradedCompany === false) rows.push([t`Mostly passive income`, yes(a.isEarnPassiveIncome)]);
  }
  rows.push([t`US taxpayer`, yes(a.isUSTaxPayer)], [t`Disregarded entity`, yes(a.isDisregardedEntity)]);
  rows.push([t`Principal place of business`, address(a.placeOfBusinessAddressId)], [t`Registered address`, address(a.registeredAddressId)]);
  for (const entry of a.taxIds)
    rows.push([
      t`Tax number in ${country(entry.countryCode)}`,
      entry.noTin ? (entry.reason ? tinReasons[entry.reason] : '') : entry.taxId.trim() || t`Not given (optional in this country)`,
    ]);
  if (view.passive)
    for (const p of a.controllingPersons) {
      const person = view.ctx.people.find((x) => x.representativeId === p.representativeId);
      if (person) rows.push([t`Controlling person`, `${person.name}, ${country(p.taxResidenceCountryCode)}`]);
    }
  const failure = view.ctx.failure;
  const saving = view.step === 'saving';
  return (
    <>
      {failure ? (
        <Alert tone="error" title={t`Your answers were not saved.`}>
          <p>{failure.code === 'failed' ? describeFailure(failure.failure) : t`Network error. Check your connection and try again.`}</p>
        </Alert>
      ) : null}
      <Card title={t`Your answers`} as="section">
        <dl className="tax-business-review">
          {rows.map(([term, value], i) => (
            <div key={i}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card title={t`The forms you will sign`} as="section">
        <ul className="tax-business-forms">
          {view.forms.map((kind) => (
            <li key={kind}>{forms[kind]}</li>
          ))}
        </ul>
        <p className="field-hint">{t`Saving fills the forms from your answers and opens the signing page. By signing you confirm the answers are true and complete.`}</p>
      </Card>
      <ButtonGroup stackOnMobile>
        <Button busy={saving} onClick={() => actor.send({ type: 'SUBMIT' })}>
          {failure ? t`Save again and sign` : t`Save and sign`}
        </Button>
        <Button variant="secondary" disabled={saving} onClick={() => actor.send({ type: 'STEP.BACK' })}>
          {t`Back`}
        </Button>
      </ButtonGroup>
    </>
  );
}
