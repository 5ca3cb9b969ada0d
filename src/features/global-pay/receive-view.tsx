/**
 * The payee page of a global payment (/receive/{id}?s=<secret>, no sign-in; document 2 §2): the
 * payment's details with "Take the money" and "Refuse the payment", the country, the payout
 * method, the method's fields (the payee form of the transfer page, PayeeFields) with the fee,
 * what arrives and this beneficiary's recent withdrawals, the e-mailed code, and the end screens.
 * A thin view of the global-payee machine: reads global-payee.select.ts, sends events.
 */
import { useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { GlobalPaymentStatus } from '../../../api/global-pay.ts';
import type { PayoutMethod } from '../../../api/payees/payout-methods.ts';
import type { GlobalPayeeMachine, PayeeInput } from '../../../machines/global-payee/global-payee.machine.ts';
import { selectPayeeView, type PayeeView } from '../../../machines/global-payee/global-payee.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { formatDate } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { describeFailure } from '../../lib/request.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { money } from '../transfers/fields.tsx';
import { useMethodNames } from '../transfers/messages.ts';
import { PayeeFields } from '../transfers/payout-fields.tsx';
import { liveGlobalPayeeMachine } from './receive-actors.ts';
import '../transfers/transfers.css';
import './receive.css';

type PayeeActor = ActorRefFrom<GlobalPayeeMachine>;

/** Owns the live actor: what the route renders. */
export function ReceivePage({ input }: { input: PayeeInput }) {
  const actor = useFlowActor(liveGlobalPayeeMachine, { input });
  return <ReceiveView actor={actor} />;
}

const date = (iso: string) => formatDate(iso, getUiLanguage());

export function ReceiveView({ actor }: { actor: PayeeActor }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectPayeeView);
  const statusWords = useStatusWords();
  const back = view.backOffered ? (
    <Button variant="secondary" disabled={!view.canBack || view.busy} onClick={() => actor.send({ type: 'BACK' })}>
      {t`Back`}
    </Button>
  ) : null;

  let title: string;
  let body: ReactNode;
  switch (view.step) {
    case 'loading':
      title = t`Your payment`;
      body = <Spinner label={t`Loading the payment`} />;
      break;
    case 'loadFailed':
      title = t`Your payment`;
      body = (
        <>
          <Notice view={view} />
          <Button onClick={() => actor.send({ type: 'RETRY' })}>{t`Try again`}</Button>
        </>
      );
      break;
    case 'blocked':
      title = view.blocked === 'locked' ? t`Too many attempts` : t`Payment not found`;
      body =
        view.blocked === 'locked' ? (
          <Alert tone="error">{t`This payment was asked for too many times with a wrong link. Try again in an hour.`}</Alert>
        ) : (
          <Alert tone="error">{t`We could not find this payment. Check that you opened the whole link from the e-mail.`}</Alert>
        );
      break;
    case 'closed': {
      const words = statusWords(view.status);
      title = words.title;
      body = <Alert tone={words.tone}>{words.text}</Alert>;
      break;
    }
    case 'details':
      title = t`You have a payment`;
      body = <DetailsStep actor={actor} view={view} />;
      break;
    case 'confirmingRefusal': {
      const sender = view.details!.senderName;
      title = t`Refuse the payment?`;
      body = (
        <>
          <Notice view={view} />
          <p>{t`The money goes back to ${sender}. You cannot take it afterwards.`}</p>
          <ButtonGroup stackOnMobile>
            <Button variant="danger" busy={view.busy} onClick={() => actor.send({ type: 'REFUSE.CONFIRM' })}>
              {t`Refuse the payment`}
            </Button>
            {back}
          </ButtonGroup>
        </>
      );
      break;
    }
    case 'country':
      title = t`Where do you want the money?`;
      body = <CountryStep actor={actor} view={view} back={back} />;
      break;
    case 'method':
      title = t`How do you want to be paid?`;
      body = <MethodStep actor={actor} view={view} back={back} />;
      break;
    case 'form':
      title = t`Your details`;
      body = <FormStep actor={actor} view={view} back={back} />;
      break;
    case 'code':
      title = t`Enter the code`;
      body = <CodeStep actor={actor} view={view} back={back} />;
      break;
    case 'done':
      title = t`On its way`;
      body = <Alert tone="success">{t`The money is on its way to you. It arrives by the method you chose; we sent you an e-mail as well.`}</Alert>;
      break;
  }
  return (
    <div className="transfer-page receive-page">
      {/* a new heading for each step: it takes the focus (focus management on steps) */}
      <StepHeading key={view.step}>{title}</StepHeading>
      {body}
    </div>
  );
}

/** The refusal, the missing answer or the code step's notices over a step. */
function Notice({ view }: { view: PayeeView }) {
  const { t } = useLingui();
  const notice = view.notice;
  if (!notice) return null;
  switch (notice.kind) {
    case 'failed':
      return (
        <Alert tone="error" title={t`This did not work.`}>
          <p>{describeFailure(notice.failure)}</p>
        </Alert>
      );
    case 'network':
      return <Alert tone="error">{t`We could not reach the bank. Check your connection and try again.`}</Alert>;
    case 'dropped':
      return <Alert tone="error">{t`Too many wrong codes. Send your details again to get a new code.`}</Alert>;
    case 'resent':
      return <Alert tone="info">{t`We sent a new code.`}</Alert>;
    default:
      // noMethods and missing are told beside their field
      return null;
  }
}

function useStatusWords(): (status: GlobalPaymentStatus | null) => { title: string; text: string; tone: 'info' | 'success' | 'warning' | 'error' } {
  const { t } = useLingui();
  return (status) => {
    switch (status) {
      case 'processing':
        return { title: t`Already taken`, text: t`This payment was taken and is on its way.`, tone: 'info' };
      case 'completed':
        return { title: t`Already paid`, text: t`This payment was taken and has been paid out.`, tone: 'success' };
      case 'refused':
        return { title: t`Payment refused`, text: t`The payment was refused. The money went back to the sender.`, tone: 'info' };
      case 'canceled':
        return { title: t`Payment canceled`, text: t`The sender canceled this payment.`, tone: 'warning' };
      case 'expired':
        return { title: t`Payment expired`, text: t`This payment was not taken in time. The money went back to the sender.`, tone: 'warning' };
      case 'returned':
        return { title: t`Payment returned`, text: t`The payout could not be delivered and came back. The money went back to the sender.`, tone: 'error' };
      case 'failed':
        return { title: t`Payout failed`, text: t`The payout could not be made. The money went back to the sender.`, tone: 'error' };
      default:
        return { title: t`Payment not available`, text: t`This payment cannot be taken now.`, tone: 'warning' };
    }
  };
}

function DetailsStep({ actor, view }: { actor: PayeeActor; view: PayeeView }) {
  const { t } = useLingui();
  const d = view.details!;
  const days = d.expireDays;
  return (
    <>
      <Notice view={view} />
      <p>{t`${d.senderName} sent you money. Choose how to receive it, or refuse it.`}</p>
      <dl className="transfer-summary">
        <dt>{t`From`}</dt>
        <dd>{d.senderName}</dd>
        <dt>{t`To`}</dt>
        <dd>{d.beneficiaryName}</dd>
        <dt>{t`Amount`}</dt>
        <dd className="transfer-summary-total">{money(d.amount, d.currencyCode)}</dd>
        <dt>{t`Description`}</dt>
        <dd>{d.description || '—'}</dd>
        <dt>{t`Fee`}</dt>
        <dd>{d.feeIsBen ? t`Paid by you: taken off the amount` : t`Paid by the sender`}</dd>
        <dt>{t`Take it by`}</dt>
        <dd>{date(d.expiresAt)}</dd>
      </dl>
      <p className="field-hint">{t`A payment can be taken within ${days} days of being sent. After that the money goes back to the sender.`}</p>
      <ButtonGroup stackOnMobile>
        <Button busy={view.busy} onClick={() => actor.send({ type: 'PAYMENT.TAKE' })}>
          {t`Take the money`}
        </Button>
        <Button variant="secondary" disabled={view.busy} onClick={() => actor.send({ type: 'PAYMENT.REFUSE' })}>
          {t`Refuse the payment`}
        </Button>
      </ButtonGroup>
    </>
  );
}

function CountryStep({ actor, view, back }: { actor: PayeeActor; view: PayeeView; back: ReactNode }) {
  const { t } = useLingui();
  const country = view.countries.find((c) => c.code === view.countryCode)?.name ?? view.countryCode;
  const error =
    view.notice?.kind === 'missing'
      ? t`Choose a country.`
      : view.notice?.kind === 'noMethods'
        ? t`This payment cannot be paid out in ${country}. Choose another country.`
        : undefined;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'NEXT' });
      }}
    >
      <Notice view={view} />
      <SelectField
        label={t`Country`}
        name="countryCode"
        value={view.countryCode}
        onChange={(countryCode) => actor.send({ type: 'COUNTRY.CHOOSE', countryCode })}
        options={view.countries.map((c) => ({ value: c.code, label: c.name }))}
        placeholder={t`Choose a country`}
        error={error}
        disabled={view.busy}
      />
      <ButtonGroup stackOnMobile>
        <Button type="submit" busy={view.busy}>
          {t`Continue`}
        </Button>
        {back}
      </ButtonGroup>
    </form>
  );
}

function MethodStep({ actor, view, back }: { actor: PayeeActor; view: PayeeView; back: ReactNode }) {
  const { t } = useLingui();
  const names = useMethodNames();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'NEXT' });
      }}
    >
      <Notice view={view} />
      <RadioGroup
        legend={t`Payout method`}
        name="method"
        value={view.method ?? ''}
        onChange={(method) => actor.send({ type: 'METHOD.CHOOSE', method: method as PayoutMethod })}
        options={view.methods.map((m) => ({ value: m, label: names[m].name, hint: names[m].hint }))}
        error={view.notice?.kind === 'missing' ? t`Choose how you want to be paid.` : undefined}
        disabled={view.busy}
      />
      <ButtonGroup stackOnMobile>
        <Button type="submit" busy={view.busy}>
          {t`Continue`}
        </Button>
        {back}
      </ButtonGroup>
    </form>
  );
}

function FormStep({ actor, view, back }: { actor: PayeeActor; view: PayeeView; back: ReactNode }) {
  const { t } = useLingui();
  const names = useMethodNames();
  const d = view.details!;
  const quote = view.quote!;
  const method = view.method ? names[view.method].name : '';
  return (
    <div className="receive-form">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'DETAILS.SUBMIT' });
        }}
      >
        <Notice view={view} />
        {view.otherErrors.length > 0 ? (
          <Alert tone="error" title={t`Your details were not accepted.`}>
            {view.otherErrors.map((e) => (
              <p key={e.param}>{validationMessage(e)}</p>
            ))}
          </Alert>
        ) : null}
        <dl className="transfer-summary" aria-label={t`What you receive`}>
          <dt>{t`Method`}</dt>
          <dd>{method}</dd>
          <dt>{t`Amount`}</dt>
          <dd>{money(d.amount, d.currencyCode)}</dd>
          <dt>{t`Fee`}</dt>
          <dd>{d.feeIsBen ? money(quote.fee, d.currencyCode) : t`Paid by the sender`}</dd>
          <dt>{t`You receive`}</dt>
          <dd className="transfer-summary-total">{money(quote.estimatedTotal, d.currencyCode)}</dd>
        </dl>
        <PayeeFields form={view.form!} values={view.values} errors={view.fieldErrors} onChange={(values) => actor.send({ type: 'FIELDS.CHANGE', values })} />
        <p className="field-hint">{t`We will e-mail you a code to confirm these details.`}</p>
        <ButtonGroup stackOnMobile>
          <Button type="submit" busy={view.busy}>
            {t`Send me the code`}
          </Button>
          {back}
        </ButtonGroup>
      </form>
      <RecentWithdrawals view={view} />
    </div>
  );
}

/** This beneficiary's recent withdrawals (at most 5), for reference beside the form. */
function RecentWithdrawals({ view }: { view: PayeeView }) {
  const { t } = useLingui();
  const names = useMethodNames();
  const statusWords = useStatusWords();
  return (
    <section className="receive-recent" aria-labelledby="receive-recent-heading">
      <h2 id="receive-recent-heading">{t`Your recent payments`}</h2>
      {view.withdrawals.length === 0 ? (
        <p className="field-hint">{t`You have taken no payment before.`}</p>
      ) : (
        <ul>
          {view.withdrawals.map((w) => (
            <li key={w.withdrawalId}>
              <strong>{money(w.amount, w.currencyCode)}</strong> · {w.senderName} · {date(w.date)}
              <br />
              <span className="field-hint">
                {names[w.paymentMethod].name} · {w.countryCode} · {w.status === 'waiting' ? t`Waiting` : statusWords(w.status).title}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CodeStep({ actor, view, back }: { actor: PayeeActor; view: PayeeView; back: ReactNode }) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const sentTo = view.operation?.approvalSentTo ?? '';
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'CODE.SUBMIT', code });
      }}
    >
      <Notice view={view} />
      <p>{t`We sent a code to ${sentTo}. Enter it to confirm where the money goes.`}</p>
      <TextField
        label={t`Code`}
        name="approvalCode"
        value={code}
        onChange={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={16}
        error={view.codeError ? validationMessage(view.codeError) : undefined}
        disabled={view.busy}
      />
      <ButtonGroup stackOnMobile>
        <Button type="submit" busy={view.busy}>
          {t`Confirm`}
        </Button>
        <Button variant="secondary" busy={view.resending} disabled={!view.canResend || view.busy} onClick={() => actor.send({ type: 'CODE.RESEND' })}>
          {t`Send a new code`}
        </Button>
        {back}
      </ButtonGroup>
      {!view.canResend && !view.resending ? <p className="field-hint">{t`You can ask for a new code a little later.`}</p> : null}
    </form>
  );
}
