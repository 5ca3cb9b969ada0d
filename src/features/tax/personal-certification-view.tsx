/**
 * The personal tax self-certification (/self-certification and /self-certification-representative;
 * document 3 §2, §3, §5): a thin view of machines/personal-self-certification. It reads
 * personal-self-certification.select.ts and sends events only; each step's heading takes focus
 * (StepHeading, keyed per step); errors sit on their field (the step's own checks and the
 * platform's VF words alike). The calls come from `calls` (the request wrapper, or the
 * representative's store), the dictionaries through `call` likewise.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { useLingui } from '@lingui/react/macro';
import { ACCEPTED_DOCUMENT_TYPES } from '../../../api/verification.ts';
import type { DocumentState } from '../../../api/verification.ts';
import type { UsCitizenshipAbsenceReason } from '../../../api/tax-certification.ts';
import { personalSelfCertificationMachine, type CallFailure } from '../../../machines/personal-self-certification/personal-self-certification.machine.ts';
import { TIN_REQUIRED_CODE, US_CITIZEN_CODE, type FieldErrors, MAX_CITIZENSHIPS } from '../../../machines/personal-self-certification/personal-self-certification.rules.ts';
import {
  selectPersonalCertificationView,
  type FormFact,
  type PersonalCertificationView,
} from '../../../machines/personal-self-certification/personal-self-certification.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { callMethod } from '../../lib/request.ts';
import { validationMessage, validationMessages } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { ProgressSteps } from '../../ui/progress-steps.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { RetryAlert, useStepControls } from '../../ui/step-controls.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { personalCertificationCalls, type MethodCall, type PersonalCertificationCalls } from './personal-actors.ts';
import { birthCountriesQuery, taxCountriesQuery, taxNumberRowOf, taxNumbersQuery } from './tax-queries.ts';
import { TaxResidencesField, entryOf, rowOf, type TaxResidenceRow } from './tax-residences-field.tsx';
import './tax.css';

export interface PersonalCertificationFlowProps {
  /** yyyy-mm-dd */
  today: string;
  /** the certification's calls (tests provide their own) */
  calls?: PersonalCertificationCalls;
  /** the dictionaries' call (the representative's store, or the request wrapper) */
  call?: MethodCall;
  /** the browser goes to the signing page */
  onSign(url: string): void;
  /** the caller is not known (a representative's link refused) */
  onUnauthorised?(): void;
  /** a link out of the flow when it has nothing more to ask ("Go to the start page") */
  exit?: ReactNode;
}

export function PersonalCertificationFlow({ today, calls, call = callMethod, onSign, onUnauthorised, exit }: PersonalCertificationFlowProps) {
  const { t, i18n } = useLingui();
  // The calls are read once, when the actor starts.
  const machine = useMemo(() => {
    const c = calls ?? personalCertificationCalls(call);
    return personalSelfCertificationMachine.provide({
      actors: {
        loadCertification: fromPromise(() => c.load()),
        saveCertification: fromPromise(({ input }) => c.save(input)),
        startSigning: fromPromise(() => c.sign()),
        uploadCln: fromPromise(({ input }) => c.uploadCln(input)),
      },
    });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const actor = useFlowActor(machine, { input: { today } });
  const view = useSelector(actor, selectPersonalCertificationView);
  const countries = useQuery(taxCountriesQuery(i18n.locale, call));
  const birthCountries = useQuery(birthCountriesQuery(i18n.locale, call));
  const taxNumbers = useQuery(taxNumbersQuery(call));
  // the step controls send BACK and RETRY (this flow has no CANCEL: the page is left by its links)
  const controls = useMemo(() => ({ send: (e: { type: 'BACK' | 'CANCEL' | 'RETRY' }) => (e.type === 'CANCEL' ? undefined : actor.send({ type: e.type })) }), [actor]);
  const { back } = useStepControls(controls, view);

  useEffect(() => {
    if (view.step === 'toSigning' && view.signUrl) onSign(view.signUrl);
    else if (view.step === 'unauthorised') onUnauthorised?.();
  }, [view.step]); // eslint-disable-line react-hooks/exhaustive-deps

  const countryList = countries.data ?? [];
  const countryName = (code: string) => countryList.find((c) => c.code === code)?.name ?? birthCountries.data?.find((c) => c.code === code)?.name ?? code;
  const errorText = useErrorText(view.fieldErrors);
  const titles: Record<PersonalCertificationView['step'], string> = {
    loading: t`Tax self-certification`,
    loadFailed: t`Tax self-certification`,
    unauthorised: t`Tax self-certification`,
    birth: t`Where and when were you born?`,
    citizenship: t`Your citizenships`,
    usStatus: t`Are you a US taxpayer?`,
    usAbsence: t`Why are you not a US citizen?`,
    residences: t`Where are you resident for tax purposes?`,
    review: t`Check your answers`,
    saveFailed: t`Your answers were not saved`,
    signing: t`Preparing your forms`,
    signFailed: t`The signing could not start`,
    toSigning: t`Opening the signing page`,
    unsigned: t`Sign your tax forms`,
    rejected: t`Your tax forms need attention`,
    pending: t`Your tax forms are being reviewed`,
    validated: t`Your tax self-certification is complete`,
  };
  const questionIds = ['birth', 'citizenship', 'usStatus', ...(view.asksAbsenceReason ? ['usAbsence'] : []), 'residences', 'review'];
  const progress = questionIds.includes(view.step);
  const stepLabels: Record<string, string> = {
    birth: t`Birth`,
    citizenship: t`Citizenship`,
    usStatus: t`US status`,
    usAbsence: t`US citizenship`,
    residences: t`Tax residences`,
    review: t`Review`,
  };

  let body: ReactNode;
  switch (view.step) {
    case 'loading':
      body = <Spinner label={t`Loading your tax details…`} />;
      break;
    case 'loadFailed':
    case 'saveFailed':
    case 'signFailed':
      body = (
        <>
          <RetryAlert
            actor={controls}
            title={
              view.step === 'loadFailed'
                ? t`Your tax details could not be loaded`
                : view.step === 'saveFailed'
                  ? t`Your answers were not saved`
                  : t`The forms could not be prepared for signing`
            }
          >
            <FailureText failure={view.failure} />
            {view.step === 'signFailed' ? <p>{t`Your answers are saved. You can also sign later from this page.`}</p> : null}
          </RetryAlert>
          {back ? <div className="actions">{back}</div> : null}
        </>
      );
      break;
    case 'unauthorised':
    case 'toSigning':
    case 'signing':
      body = <Spinner label={view.step === 'signing' ? t`Filling in your forms from your answers…` : t`One moment…`} />;
      break;
    case 'birth':
      body = <BirthStep view={view} send={actor.send} countries={birthCountries.data ?? countryList} errorText={errorText} />;
      break;
    case 'citizenship':
      body = <CitizenshipStep view={view} send={actor.send} countries={countryList} errorText={errorText} back={back} />;
      break;
    case 'usStatus':
      body = <UsStatusStep view={view} send={actor.send} errorText={errorText} back={back} />;
      break;
    case 'usAbsence':
      body = <UsAbsenceStep view={view} send={actor.send} errorText={errorText} back={back} />;
      break;
    case 'residences':
      body = <ResidencesStep view={view} send={actor.send} countries={countryList} rowFor={(code) => taxNumberRowOf(taxNumbers.data, code)} errorText={errorText} back={back} />;
      break;
    case 'review':
      body = <ReviewStep view={view} send={actor.send} countryName={countryName} rowFor={(code) => taxNumberRowOf(taxNumbers.data, code)} back={back} />;
      break;
    default:
      body = <StatusPage view={view} send={actor.send} exit={exit} />;
  }

  return (
    <div className="tax-page">
      {progress ? (
        <>
          <ProgressSteps label={t`Your tax self-certification`} doneText={t`done`} current={view.step} steps={questionIds.map((id) => ({ id, label: stepLabels[id] }))} />
          {/* on a phone the steps' list gives way to one line (tax.css) */}
          <p className="tax-step-count">{t`Step ${questionIds.indexOf(view.step) + 1} of ${questionIds.length}: ${stepLabels[view.step]}`}</p>
        </>
      ) : null}
      {/* a new heading for each step: it takes the focus */}
      <StepHeading key={view.step}>{titles[view.step]}</StepHeading>
      {body}
    </div>
  );
}

type Send = ReturnType<typeof useFlowActor<typeof personalSelfCertificationMachine>>['send'];
type ErrorText = (param: string) => string | undefined;

/** A field's error worded: this flow's own codes, else the platform's sentence for the code. */
function useErrorText(errors: FieldErrors): ErrorText {
  const { t } = useLingui();
  return (param) => {
    const e = errors[param];
    if (!e) return undefined;
    if (e.code === TIN_REQUIRED_CODE) return t`This country requires its tax number: enter it, or choose another reason.`;
    if (e.code === US_CITIZEN_CODE) return t`A US citizen is a US taxpayer: choose “Yes”.`;
    // a residence with neither its number nor a reason: both ways out are named
    if (e.code === 'required' && /^taxIds\.\d+\.taxId$/.test(param)) return t`Enter the tax number, or tick that you have none and say why.`;
    return validationMessage(e);
  };
}

function FailureText({ failure }: { failure: CallFailure | null }) {
  const { t } = useLingui();
  if (!failure) return null;
  if (failure.code === 'network') return <p>{t`The connection failed. Check your connection and try again.`}</p>;
  if (failure.code === 'auth') return <p>{t`Your session has ended. Please sign in again.`}</p>;
  return <p>{failure.errors?.length ? validationMessages(failure.errors) : (failure.detail ?? t`The request was not accepted.`)}</p>;
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="actions">{children}</div>;
}

/** One question step: its fields, then Continue (and Back after the first step). */
function StepForm({ onSubmit, back, children }: { onSubmit: () => void; back?: ReactNode; children: ReactNode }) {
  const { t } = useLingui();
  return (
    <form
      className="tax-step"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <Actions>
        <Button type="submit">{t`Continue`}</Button>
        {back}
      </Actions>
    </form>
  );
}

function BirthStep({
  view,
  send,
  countries,
  errorText,
}: {
  view: PersonalCertificationView;
  send: Send;
  countries: readonly { code: string; name: string }[];
  errorText: ErrorText;
}) {
  const { t } = useLingui();
  const [values, setValues] = useState({ cityOfBirth: view.draft.cityOfBirth, countryOfBirth: view.draft.countryOfBirth, dateOfBirth: view.draft.dateOfBirth });
  return (
    <StepForm onSubmit={() => send({ type: 'BIRTH.SUBMIT', values })}>
      <p className="tax-lead">{t`Tax rules ask us where you were born. We filled in what your profile already says; check it.`}</p>
      <TextField
        label={t`City of birth`}
        name="cityOfBirth"
        value={values.cityOfBirth}
        onChange={(cityOfBirth) => setValues((v) => ({ ...v, cityOfBirth }))}
        error={errorText('cityOfBirth')}
        maxLength={100}
      />
      <SelectField
        label={t`Country of birth`}
        name="countryOfBirth"
        value={values.countryOfBirth}
        onChange={(countryOfBirth) => setValues((v) => ({ ...v, countryOfBirth }))}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
        placeholder={t`Choose a country`}
        error={errorText('countryOfBirth')}
      />
      <TextField
        label={t`Date of birth`}
        name="dateOfBirth"
        type="date"
        value={values.dateOfBirth}
        onChange={(dateOfBirth) => setValues((v) => ({ ...v, dateOfBirth }))}
        error={errorText('dateOfBirth')}
      />
    </StepForm>
  );
}

function CitizenshipStep({
  view,
  send,
  countries,
  errorText,
  back,
}: {
  view: PersonalCertificationView;
  send: Send;
  countries: readonly { code: string; name: string }[];
  errorText: ErrorText;
  back: ReactNode;
}) {
  const { t } = useLingui();
  const [list, setList] = useState<string[]>(view.draft.citizenship.length ? view.draft.citizenship : ['']);
  const options = countries.map((c) => ({ value: c.code, label: c.name }));
  return (
    <StepForm back={back} onSubmit={() => send({ type: 'CITIZENSHIP.SUBMIT', citizenship: list.filter((c) => c !== '') })}>
      <p className="tax-lead">{t`List every country you are a citizen of, including a second or third citizenship.`}</p>
      {list.map((code, i) => (
        <div key={i} className="tax-row">
          <SelectField
            label={list.length > 1 ? t`Citizenship ${i + 1}` : t`Citizenship`}
            name={`citizenship.${i}`}
            value={code}
            onChange={(value) => setList((l) => l.map((c, j) => (j === i ? value : c)))}
            options={options}
            placeholder={t`Choose a country`}
            error={errorText(`citizenship.${i}`) ?? (i === 0 ? errorText('citizenship') : undefined)}
          />
          {list.length > 1 ? (
            <Button variant="link" size="sm" onClick={() => setList((l) => l.filter((_, j) => j !== i))}>
              {t`Remove citizenship ${i + 1}`}
            </Button>
          ) : null}
        </div>
      ))}
      {list.length < MAX_CITIZENSHIPS ? (
        <Button variant="secondary" size="sm" onClick={() => setList((l) => [...l, ''])}>
          {t`Add another citizenship`}
        </Button>
      ) : null}
    </StepForm>
  );
}

function UsStatusStep({ view, send, errorText, back }: { view: PersonalCertificationView; send: Send; errorText: ErrorText; back: ReactNode }) {
  const { t } = useLingui();
  const usCitizen = view.draft.citizenship.includes('US');
  const initial = view.draft.isUSTaxPayer === null ? (usCitizen ? 'yes' : '') : view.draft.isUSTaxPayer ? 'yes' : 'no';
  const [value, setValue] = useState(initial);
  return (
    <StepForm back={back} onSubmit={() => send({ type: 'US.SUBMIT', isUSTaxPayer: value === '' ? null : value === 'yes' })}>
      <p className="tax-lead">
        {t`You are a US taxpayer if you are a US citizen (also with another citizenship), hold a US green card, or spent enough days in the US this year and the two before to be a US resident for tax.`}
      </p>
      {usCitizen ? <Alert tone="info">{t`As a US citizen you are a US taxpayer.`}</Alert> : null}
      <RadioGroup
        legend={t`Are you a US taxpayer?`}
        name="isUSTaxPayer"
        value={value}
        onChange={setValue}
        inline
        options={[
          { value: 'yes', label: t`Yes` },
          { value: 'no', label: t`No` },
        ]}
        error={errorText('isUSTaxPayer')}
      />
    </StepForm>
  );
}

function UsAbsenceStep({ view, send, errorText, back }: { view: PersonalCertificationView; send: Send; errorText: ErrorText; back: ReactNode }) {
  const { t } = useLingui();
  const [reason, setReason] = useState<UsCitizenshipAbsenceReason | ''>(view.draft.usCitizenshipAbsenceReason ?? '');
  const [explanation, setExplanation] = useState(view.draft.usCitizenshipAbsenceExplanation);
  return (
    <StepForm
      back={back}
      onSubmit={() => send({ type: 'ABSENCE.SUBMIT', values: { reason: reason === '' ? null : reason, explanation: reason === 'NOT_CITIZEN_AT_BIRTH' ? explanation : '' } })}
    >
      <p className="tax-lead">{t`You were born in the United States but are not a US citizen. US tax rules ask why.`}</p>
      <RadioGroup
        legend={t`Reason`}
        name="usCitizenshipAbsenceReason"
        value={reason}
        onChange={(r) => setReason(r as UsCitizenshipAbsenceReason)}
        options={[
          { value: 'RENOUNCED', label: t`I renounced my US citizenship`, hint: t`We will ask you for your certificate of loss of nationality (form DS-4083).` },
          { value: 'NOT_CITIZEN_AT_BIRTH', label: t`I did not become a US citizen at birth`, hint: t`For example, a child of a foreign diplomat.` },
        ]}
        error={errorText('usCitizenshipAbsenceReason')}
      />
      {reason === 'NOT_CITIZEN_AT_BIRTH' ? (
        <TextField
          label={t`Explain why`}
          name="usCitizenshipAbsenceExplanation"
          value={explanation}
          onChange={setExplanation}
          error={errorText('usCitizenshipAbsenceExplanation')}
          maxLength={500}
        />
      ) : null}
    </StepForm>
  );
}

function ResidencesStep({
  view,
  send,
  countries,
  rowFor,
  errorText,
  back,
}: {
  view: PersonalCertificationView;
  send: Send;
  countries: readonly { code: string; name: string }[];
  rowFor: Parameters<typeof TaxResidencesField>[0]['rowFor'];
  errorText: ErrorText;
  back: ReactNode;
}) {
  const { t } = useLingui();
  const [rows, setRows] = useState<TaxResidenceRow[]>(
    view.draft.taxIds.length ? view.draft.taxIds.map(rowOf) : [{ countryCode: '', taxId: '', noTin: false, reason: '', explanation: '' }],
  );
  const usTaxPayer = view.draft.isUSTaxPayer === true;
  return (
    <StepForm back={back} onSubmit={() => send({ type: 'RESIDENCES.SUBMIT', taxIds: rows.map(entryOf) })}>
      <p className="tax-lead">{t`Give every country where you pay tax as a resident, with your tax number there. If you have none, tell us why.`}</p>
      <TaxResidencesField
        rows={rows}
        onChange={setRows}
        countries={countries}
        rowFor={rowFor}
        use="personal"
        errorOf={errorText}
        locked={usTaxPayer ? { countryCode: 'US', why: t`As a US taxpayer you are resident for tax in the United States; this residence stays.` } : null}
      />
    </StepForm>
  );
}

function useFormNames(): Record<FormFact['kind'], string> {
  const { t } = useLingui();
  return {
    w9: t`Form W-9 (for US persons)`,
    w8Ben: t`Form W-8BEN (for persons who are not US persons)`,
    w8BenE: t`Form W-8BEN-E`,
    taxResidencySelfCertification: t`Tax residency self-certification (CRS)`,
    certificateOfLossOfNationality: t`Certificate of loss of US nationality (to upload)`,
  };
}

function ReviewStep({
  view,
  send,
  countryName,
  rowFor,
  back,
}: {
  view: PersonalCertificationView;
  send: Send;
  countryName(code: string): string;
  rowFor: Parameters<typeof TaxResidencesField>[0]['rowFor'];
  back: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const d = view.draft;
  const formNames = useFormNames();
  const reasons: Record<string, string> = {
    COUNTRY_DOES_NOT_ISSUE: t`No number: the country does not issue them`,
    CANNOT_OBTAIN: t`No number: I cannot obtain one`,
    NO_TIN_IS_REQUIRED: t`No number: not required by the country`,
    RENOUNCED: t`Renounced the US citizenship`,
    NOT_CITIZEN_AT_BIRTH: t`Not a US citizen at birth`,
  };
  const date = d.dateOfBirth ? i18n.date(new Date(`${d.dateOfBirth}T00:00:00Z`), { dateStyle: 'long', timeZone: 'UTC' }) : '';
  return (
    <div className="tax-step">
      <dl className="tax-summary">
        <dt>{t`Born`}</dt>
        <dd>{`${d.cityOfBirth}, ${countryName(d.countryOfBirth)}, ${date}`}</dd>
        <dt>{t`Citizenships`}</dt>
        <dd>{d.citizenship.map(countryName).join(', ')}</dd>
        <dt>{t`US taxpayer`}</dt>
        <dd>{d.isUSTaxPayer ? t`Yes` : t`No`}</dd>
        {view.asksAbsenceReason && d.usCitizenshipAbsenceReason ? (
          <>
            <dt>{t`Not a US citizen`}</dt>
            <dd>{[reasons[d.usCitizenshipAbsenceReason], d.usCitizenshipAbsenceExplanation].filter(Boolean).join(': ')}</dd>
          </>
        ) : null}
        <dt>{t`Tax residences`}</dt>
        <dd>
          <ul className="tax-plain-list">
            {d.taxIds.map((r) => (
              <li key={r.countryCode}>
                {countryName(r.countryCode)}: {r.taxId ? `${rowFor(r.countryCode).personalShortName} ${r.taxId}` : (reasons[r.tinMissingReason ?? ''] ?? '')}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      <section className="tax-forms" aria-labelledby="tax-forms-heading">
        <h2 id="tax-forms-heading">{t`What happens next`}</h2>
        <p>{t`Your answers fill in these forms. You sign them online on the next page:`}</p>
        <ul>
          {view.forms
            .filter((f) => f.kind !== 'certificateOfLossOfNationality')
            .map((f) => (
              <li key={f.kind}>{formNames[f.kind]}</li>
            ))}
        </ul>
        {view.forms.some((f) => f.kind === 'certificateOfLossOfNationality') ? (
          <p>{t`After signing, you will be asked to upload your certificate of loss of US nationality.`}</p>
        ) : null}
      </section>
      <Actions>
        <Button busy={view.saving} onClick={() => send({ type: 'SAVE' })}>
          {t`Save and sign`}
        </Button>
        {view.saving ? null : back}
      </Actions>
    </div>
  );
}

function useStatusBadge(): (s: DocumentState | null) => { tone: BadgeTone; text: string } {
  const { t } = useLingui();
  return (s) => {
    switch (s) {
      case 'pending':
        return { tone: 'info', text: t`Waiting for review` };
      case 'validated':
      case 'expiredSoon':
      case 'notRequired':
        return { tone: 'success', text: t`Confirmed` };
      case 'rejected':
        return { tone: 'danger', text: t`Refused` };
      case 'expired':
        return { tone: 'warning', text: t`Expired` };
      default:
        return { tone: 'warning', text: t`Not done yet` };
    }
  };
}

function StatusPage({ view, send, exit }: { view: PersonalCertificationView; send: Send; exit?: ReactNode }) {
  const { t } = useLingui();
  const formNames = useFormNames();
  const badge = useStatusBadge();
  const lead: Record<string, string> = {
    unsigned: t`Your answers are saved. Sign the forms they fill in to finish.`,
    rejected: t`We could not accept a document below. Sign the forms again or change your answers.`,
    pending: t`Thank you. We are checking your signed forms; this usually takes one or two working days.`,
    validated: t`Your tax details are confirmed. There is nothing more to do.`,
  };
  return (
    <div className="tax-step">
      <p className="tax-lead">{lead[view.step]}</p>
      {view.step === 'pending' && view.clnToUpload ? <Alert tone="warning">{t`One more thing: upload your certificate of loss of nationality below.`}</Alert> : null}
      <ul className="tax-documents" aria-label={t`Your tax documents`}>
        {view.savedForms.map((f) => {
          const b = badge(f.status);
          return (
            <li key={f.kind}>
              <span>{formNames[f.kind]}</span>
              <Badge tone={b.tone}>{b.text}</Badge>
            </li>
          );
        })}
      </ul>
      {view.clnToUpload ? <ClnUpload view={view} send={send} /> : null}
      <Actions>
        {view.step === 'unsigned' || view.step === 'rejected' ? (
          <Button onClick={() => send({ type: 'SIGN' })}>{view.step === 'rejected' ? t`Sign the forms again` : t`Sign the forms`}</Button>
        ) : null}
        <Button variant="secondary" onClick={() => send({ type: 'EDIT' })}>
          {t`Change my answers`}
        </Button>
        {exit}
      </Actions>
    </div>
  );
}

const ACCEPT = ACCEPTED_DOCUMENT_TYPES.join(',');

/** The certificate of loss of nationality, uploaded here (personalLossOfNationalityCertificateUpload). */
function ClnUpload({ view, send }: { view: PersonalCertificationView; send: Send }) {
  const { t } = useLingui();
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const failure = view.clnFailure;
  const error = missing
    ? t`Choose the file of your certificate.`
    : failure
      ? failure.code === 'network'
        ? t`The connection failed. Check your connection and try again.`
        : failure.code === 'refused' && failure.errors?.length
          ? validationMessages(failure.errors)
          : failure.code === 'refused'
            ? (failure.detail ?? t`The request was not accepted.`)
            : t`Your session has ended. Please sign in again.`
      : null;
  return (
    <section className="tax-cln" aria-labelledby="tax-cln-heading">
      <h2 id="tax-cln-heading">{t`Upload your certificate of loss of nationality`}</h2>
      <p>{t`You renounced your US citizenship. Upload the Certificate of Loss of Nationality of the United States (form DS-4083) as a PDF or a photo.`}</p>
      <div className="field">
        <label htmlFor="tax-cln-file">{t`Certificate file`}</label>
        <input
          ref={input}
          id="tax-cln-file"
          type="file"
          accept={ACCEPT}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'tax-cln-error' : undefined}
          onChange={(e) => {
            setMissing(false);
            setFile(e.currentTarget.files?.[0] ?? null);
          }}
        />
        {error ? (
          <p id="tax-cln-error" className="field-error">
            {error}
          </p>
        ) : null}
      </div>
      <Button
        variant="secondary"
        busy={view.uploadingCln}
        onClick={() => {
          if (!file) {
            setMissing(true);
            input.current?.focus();
            return;
          }
          send({ type: 'CLN.UPLOAD', file });
        }}
      >
        {t`Upload the certificate`}
      </Button>
    </section>
  );
}
