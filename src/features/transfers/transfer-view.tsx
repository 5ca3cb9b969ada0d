/**
 * A transfer page, for every kind (/transfer/account, /transfer/p2p, /transfer/external): the form
 * with its live fee, limits, "send all", (p2p) payee check and recent transfers, (external) the
 * payee's country, the methods offered there and the method's payee form as the platform gives
 * it; the review; the approval (the approval machine, the transfer machine's child); the result.
 * A thin view of the transfer machine: reads transfer.select.ts, sends events. Amounts in the UI
 * language (src/lib/format.ts).
 */
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { Account } from '../../../api/accounts.ts';
import type { TransferMachine } from '../../../machines/transfer/transfer.machine.ts';
import { selectTransferView, type TransferView as TransferFacts } from '../../../machines/transfer/transfer.select.ts';
import {
  defaultRecurring,
  patchFromRecent,
  type RecurringForm,
  type TransferFormPatch,
  type TransferKind,
} from '../../../machines/transfer/transfer.rules.ts';
import { errorPopupContent } from '../../lib/errors.ts';
import { describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { ErrorPopup } from '../../ui/error-popup.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { createTransferLogic, type TransferActorDeps } from './actors.ts';
import { ApprovalView } from './approval-view.tsx';
import { money } from './fields.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { PlusIcon } from '../../ui/icons.tsx';
import { useFieldErrorText, useFrequencyNames, useKindTitles, useMethodNames } from './messages.ts';
import { isPayoutMethod, type PayoutMethod } from '../../../api/payees/payout-methods.ts';
import { PayoutRoute, PayeeSummary, type CountryOption } from './payout-fields.tsx';
import { PENDING_PAYMENTS_PATH, SentForApprovalNote, useSentForApprovalTitle } from '../../lib/sent-for-approval.tsx';
import './transfers.css';

type Send = (patch: TransferFormPatch) => void;

/** The pages a transfer page links to. */
export type PagePath = '/accounts/open' | '/transfer/account' | typeof PENDING_PAYMENTS_PATH;
/** A link to another page of the app: the route passes the router's Link; a plain anchor without one (tests). */
export type PageLink = (props: { to: PagePath; className?: string; children: ReactNode }) => ReactNode;
const AnchorLink: PageLink = ({ to, className, children }) => (
  <a href={to} className={className}>
    {children}
  </a>
);

export interface TransferPageOptions {
  /** the user's own e-mail addresses when acting for themselves (see TransferInput.ownEmails) */
  ownEmails?: readonly string[];
  /**
   * The user may open an account for the customer acted for (themselves, or a company with a
   * right that may open accounts): with no account they are offered to open one.
   */
  canOpenAccount?: boolean;
  link?: PageLink;
  /** external: the countries a payee may be in, named in the UI language (the countries dictionary) */
  countries?: readonly CountryOption[];
}

/** The route's entry: the machine with the real actors, for one kind. */
export function TransferPage({
  kind,
  deps,
  ownEmails,
  canOpenAccount,
  link,
  countries,
  fromAccountId,
  toAccountId,
}: { kind: TransferKind; deps: TransferActorDeps; fromAccountId?: number | undefined; toAccountId?: number | undefined } & TransferPageOptions) {
  const logic = useMemo(() => createTransferLogic(deps), [deps]);
  // the accounts the page opens with (TransferInput): read when the machine starts
  const actor = useFlowActor(logic, { input: { kind, ownEmails, ...(fromAccountId !== undefined ? { fromAccountId } : {}), ...(toAccountId !== undefined ? { toAccountId } : {}) } });
  return <TransferView actor={actor} canOpenAccount={canOpenAccount} link={link} countries={countries} />;
}

/** No account to send from: open one (where the user may), or ask for it. */
function NoAccount({ link: PageLinkTo }: { link: PageLink }) {
  const { t } = useLingui();
  return (
    <Alert tone="info" title={t`You have no account to send from yet.`}>
      <p>{t`Open an account in the currency you need: it takes a moment.`}</p>
      <PageLinkTo to="/accounts/open" className="btn btn-primary">
        <PlusIcon />
        {t`Open an account`}
      </PageLinkTo>
    </Alert>
  );
}

export function TransferView({
  actor,
  canOpenAccount = false,
  link = AnchorLink,
  countries = [],
}: { actor: ActorRefFrom<TransferMachine> } & Omit<TransferPageOptions, 'ownEmails'>) {
  const { t } = useLingui();
  const view = useSelector(actor, selectTransferView);
  const titles = useKindTitles();
  const title = titles[view.kind];
  const sentForApproval = useSentForApprovalTitle();

  switch (view.step) {
    case 'loading':
      return (
        <div className="transfer-page">
          <StepHeading>{title}</StepHeading>
          <Spinner label={t`Loading your accounts`} />
        </div>
      );
    case 'loadFailed':
      return (
        <div className="transfer-page">
          <StepHeading>{title}</StepHeading>
          <Alert tone="error" title={t`We could not load your accounts.`}>
            {view.loadFailure?.ok === false && view.loadFailure.code === 'failed' ? <p>{describeFailure(view.loadFailure.failure)}</p> : null}
          </Alert>
          <Button onClick={() => actor.send({ type: 'LOAD.RETRY' })}>{t`Try again`}</Button>
        </div>
      );
    case 'notAllowed':
      return (
        <div className="transfer-page">
          <StepHeading>{title}</StepHeading>
          {canOpenAccount && view.accounts.length === 0 ? (
            <NoAccount link={link} />
          ) : (
            <Alert tone="warning" title={t`You are not allowed to make this kind of transfer.`}>
              {/* Someone acting for themselves has no owner to ask: only the provider can allow it. */}
              <p>{canOpenAccount ? t`Ask your provider's support to allow it.` : t`Ask the account's owner or your provider's support to allow it.`}</p>
            </Alert>
          )}
        </div>
      );
    case 'editing':
      if (view.accounts.length === 0 && canOpenAccount) {
        return (
          <div className="transfer-page">
            <StepHeading>{title}</StepHeading>
            <NoAccount link={link} />
          </div>
        );
      }
      return <EditingStep view={view} title={title} actor={actor} canOpenAccount={canOpenAccount} link={link} countries={countries} />;
    case 'reviewing':
      return <ReviewStep view={view} actor={actor} countries={countries} />;
    case 'approving':
      return (
        <div className="transfer-page">
          {/* The approval's own heading takes the focus. */}
          <h1>{title}</h1>
          <Summary view={view} countries={countries} />
          {view.approval ? <ApprovalView actor={view.approval} /> : null}
        </div>
      );
    case 'done':
      return (
        <div className="transfer-page">
          {/* document 2 §4: a company's payment by a user who may only initiate (right 3) waits for a second approval: another title */}
          <StepHeading>{view.resultStatus === 'pending' ? sentForApproval : t`Successfully submitted`}</StepHeading>
          <SettledNote view={view} link={link} />
          {view.result ? <ResultSummary view={view} /> : null}
          <Button onClick={() => actor.send({ type: 'TRANSFER.NEW' })}>{t`Make another transfer`}</Button>
        </div>
      );
    case 'failed': {
      const o = view.outcome;
      const detail =
        o?.reason === 'rejected'
          ? t`Transaction was rejected.`
          : o?.reason === 'expired'
            ? t`The time to approve the transfer ran out.`
            : o?.failure
              ? describeFailure(o.failure)
              : null;
      return (
        <div className="transfer-page">
          <StepHeading>{t`Failed transaction`}</StepHeading>
          {detail ? <Alert tone="error">{detail}</Alert> : null}
          <Button onClick={() => actor.send({ type: 'TRANSFER.NEW' })}>{t`Make another transfer`}</Button>
        </div>
      );
    }
  }
}

function useAccountLabel() {
  const { t } = useLingui();
  return (a: Account) => {
    const balance = money(a.balance, a.currency);
    const id = a.accountId;
    const currency = a.currency;
    return t`${currency} account ${id}, balance ${balance}`;
  };
}

/** Under "Successfully submitted": whether the money has gone (posted) or waits for an approval (pending). */
function SettledNote({ view, link }: { view: TransferFacts; link: PageLink }) {
  const { t } = useLingui();
  if (view.resultStatus === 'posted') {
    return (
      <Alert tone="success">
        {view.kind === 'betweenAccounts' ? t`The money has been moved between your accounts.` : t`The money has been sent: it has left your account and reached the payee.`}
      </Alert>
    );
  }
  if (view.resultStatus === 'processing') {
    return (
      <Alert tone="success">
        {t`The money is on its way: it has left your available balance and is being sent to the payee. Your history shows when it arrives, or if it comes back.`}
      </Alert>
    );
  }
  // the company's checker decides it (maker-checker): the note every done screen shows then
  if (view.resultStatus === 'pending') return <SentForApprovalNote link={link} />;
  return null;
}

function EditingStep({
  view,
  title,
  actor,
  canOpenAccount,
  link: PageLinkTo,
  countries,
}: {
  view: TransferFacts;
  title: string;
  actor: ActorRefFrom<TransferMachine>;
  canOpenAccount: boolean;
  link: PageLink;
  countries: readonly CountryOption[];
}) {
  const { t } = useLingui();
  const id = useId();
  const errorText = useFieldErrorText();
  const accountLabel = useAccountLabel();
  const methods = useMethodNames();
  const methodNames = (method: PayoutMethod) => methods[method].name;
  const send: Send = (patch) => actor.send({ type: 'FORM.CHANGE', patch });
  const { form, fieldErrors: fe, rules } = view;
  const accountOptions = view.accounts.map((a) => ({ value: String(a.accountId), label: accountLabel(a) }));
  const asId = (v: string) => (v === '' ? null : Number(v));
  const currencyChoices =
    rules.currencyChoice && view.source && view.destination && view.source.currency !== view.destination.currency
      ? [view.source.currency, view.destination.currency]
      : null;
  const payeeName = view.payee?.name ?? view.payee?.email ?? '';
  const amountCurrency = view.amountCurrency;
  // A review refused for the fields: the first field in error takes the focus.
  const formRef = useRef<HTMLFormElement>(null);
  const reviewAsked = useRef(false);
  useEffect(() => {
    if (!reviewAsked.current) return;
    reviewAsked.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [fe, view.reviewBlock]);

  return (
    <div className="transfer-page">
      <StepHeading>{title}</StepHeading>
      {view.notice === 'approvalCanceled' ? (
        <Alert tone="info">{t`You canceled the transfer: nothing was sent. You can change it and send it again.`}</Alert>
      ) : null}

      {view.recent.length > 0 ? (
        <section className="transfer-recent" aria-labelledby={`${id}-recent`}>
          <h2 id={`${id}-recent`}>{t`Recent transfers`}</h2>
          <ul>
            {view.recent.map((r, i) => {
              const who = r.toName ?? r.toEmail ?? '';
              const amount = money(r.amount, r.currency);
              // a payout says how it went (and a card its last four: the number is typed again)
              const method = isPayoutMethod(r.type) ? methodNames(r.type) : null;
              const last4 = r.payee?.cardLast4;
              return (
                <li key={`${r.date}-${i}`}>
                  <Button variant="link" onClick={() => send(patchFromRecent(r))}>
                    {method === null
                      ? t`Send again to ${who}: ${amount}`
                      : last4
                        ? t`Send again to ${who} (${method}, card ending ${last4}): ${amount}`
                        : t`Send again to ${who} (${method}): ${amount}`}
                  </Button>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      <form
        ref={formRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          reviewAsked.current = true;
          actor.send({ type: 'REVIEW' });
        }}
      >
        <SelectField
          label={t`From account`}
          name="fromAccountId"
          value={form.fromAccountId === null ? '' : String(form.fromAccountId)}
          onChange={(v) => send({ fromAccountId: asId(v) })}
          options={accountOptions}
          placeholder={t`Choose an account`}
          error={errorText(fe.fromAccountId)}
        />
        {rules.toAccount ? (
          <SelectField
            label={t`To account`}
            name="toAccountId"
            value={form.toAccountId === null ? '' : String(form.toAccountId)}
            onChange={(v) => send({ toAccountId: asId(v) })}
            options={accountOptions.filter((o) => o.value !== String(form.fromAccountId))}
            placeholder={t`Choose an account`}
            error={errorText(fe.toAccountId)}
          />
        ) : null}
        {rules.route ? <PayoutRoute view={view} actor={actor} countries={countries} /> : null}
        {rules.payee ? (
          <TextField
            label={t`Payee's e-mail address`}
            name="payeeEmail"
            type="email"
            autoComplete="email"
            maxLength={254}
            value={form.payeeEmail}
            onChange={(v) => send({ payeeEmail: v })}
            hint={
              view.payeeBusy
                ? t`Checking the e-mail address…`
                : view.payee && !view.payeeProblem
                  ? t`Sending to ${payeeName}`
                  : view.payeeUnchecked
                    ? t`We could not check this address now. It is checked when you send.`
                    : undefined
            }
            error={errorText(fe.payeeEmail ?? (view.payeeProblem ? { code: view.payeeProblem } : undefined))}
          />
        ) : null}
        {fe.payeeEmail?.code === 'ownEmail' ? (
          <p className="transfer-field-link">
            <PageLinkTo to="/transfer/account">{t`Move money between your accounts`}</PageLinkTo>
          </p>
        ) : null}
        {rules.toAccount && view.accounts.length === 1 && canOpenAccount ? (
          <p className="field-hint">
            {t`You have one account: open another to move money between them.`}{' '}
            <PageLinkTo to="/accounts/open">{t`Open an account`}</PageLinkTo>
          </p>
        ) : null}

        <div className="transfer-amount">
          <TextField
            label={amountCurrency ? t`Amount (${amountCurrency})` : t`Amount`}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            maxLength={24}
            value={form.amount}
            onChange={(v) => send({ amount: v })}
            error={errorText(fe.amount)}
          />
          {currencyChoices ? (
            <SelectField
              label={t`Amount in`}
              name="currency"
              value={view.amountCurrency ?? ''}
              onChange={(v) => send({ currency: v === view.source?.currency ? null : v })}
              options={currencyChoices.map((c) => ({ value: c, label: c }))}
              error={errorText(fe.currency)}
            />
          ) : null}
          <Button variant="link" onClick={() => actor.send({ type: 'MAX.REQUEST' })} disabled={!view.canAskMax} busy={view.maxBusy}>
            {t`Send all`}
          </Button>
          {view.maxFailure ? (
            <p className="field-error">
              {t`We could not find the largest amount.`} {view.maxFailure.code === 'failed' ? describeFailure(view.maxFailure.failure) : ''}
            </p>
          ) : null}
        </div>

        <FeeLine view={view} onRetry={() => actor.send({ type: 'FEE.RETRY' })} />
        {view.limits ? <LimitsLine view={view} /> : null}

        {rules.details ? (
          <>
            <TextField
              label={rules.route ? t`Note for your history (optional)` : t`Note to the payee (optional)`}
              name="note"
              maxLength={500}
              value={form.note}
              onChange={(v) => send({ note: v })}
              error={errorText(fe.note)}
            />
            <TextField
              label={t`Reference (optional)`}
              name="reference"
              maxLength={140}
              value={form.reference}
              onChange={(v) => send({ reference: v })}
              hint={rules.route ? t`The payee sees it with the money.` : undefined}
              error={errorText(fe.reference)}
            />
            {rules.template ? (
              <TextField
                label={t`Save as a template named (optional)`}
                name="templateName"
                maxLength={100}
                value={form.templateName}
                onChange={(v) => send({ templateName: v })}
                error={errorText(fe.templateName)}
              />
            ) : null}
          </>
        ) : null}

        {rules.recurring ? <RecurringSection recurring={form.recurring} send={send} view={view} /> : null}

        {view.reviewBlock === 'feeNeeded' ? <Alert tone="error">{t`The fee is not known yet. Wait for it, or try calculating it again.`}</Alert> : null}
        <div className="actions">
          <Button type="submit" disabled={view.feeBusy}>
            {t`Review the transfer`}
          </Button>
        </div>
      </form>
      <ErrorPopup content={view.failure ? errorPopupContent(view.failure) : null} onClose={() => actor.send({ type: 'POPUP.CLOSE' })} />
    </div>
  );
}

/** The live fee: announced politely as it changes. */
function FeeLine({ view, onRetry }: { view: TransferFacts; onRetry(): void }) {
  const { t } = useLingui();
  const q = view.quote;
  let text: string | null = null;
  if (view.feeBusy) text = t`Calculating the fee…`;
  else if (q) {
    const fee = money(q.fee, q.feeCurrency);
    const arrives = money(q.toAmount, q.toCurrency);
    text = view.kind === 'betweenAccounts' ? t`Fee: ${fee}. Arrives: ${arrives}.` : t`Fee: ${fee}. They receive: ${arrives}.`;
    if (q.currency !== q.toCurrency) {
      const from = q.currency;
      const to = q.toCurrency;
      const rate = q.rate;
      text += ' ' + t`Rate: 1 ${from} = ${rate} ${to}.`;
    }
    if (view.total) {
      const total = money(view.total.amount, view.total.currency);
      text += ' ' + t`You pay in total: ${total}.`;
    }
  } else if (view.feeFailure) {
    text = t`We could not calculate the fee.`;
    if (view.feeFailure.code === 'failed') text += ' ' + describeFailure(view.feeFailure.failure);
  }
  return (
    <div className="transfer-fee">
      <p role="status" aria-live="polite" aria-atomic="true">
        {text}
      </p>
      {view.canRetryFee ? (
        <Button variant="secondary" onClick={onRetry}>
          {t`Calculate the fee again`}
        </Button>
      ) : null}
    </div>
  );
}

function LimitsLine({ view }: { view: TransferFacts }) {
  const { t } = useLingui();
  const l = view.limits!;
  const min = money(l.minAmount, l.currencyCode);
  const max = money(l.maxAmount, l.currencyCode);
  const left = money(l.dailyRemaining, l.currencyCode);
  return <p className="field-hint transfer-limits">{t`Per transfer: ${min} to ${max}. Left of today's limit: ${left}.`}</p>;
}

function RecurringSection({ recurring, send, view }: { recurring: RecurringForm | null; send: Send; view: TransferFacts }) {
  const { t } = useLingui();
  const id = useId();
  const errorText = useFieldErrorText();
  const frequencies = useFrequencyNames();
  const set = (patch: Partial<RecurringForm>) => send({ recurring: { ...(recurring ?? defaultRecurring()), ...patch } });
  return (
    <fieldset className="transfer-recurring">
      <legend>{t`Repeat`}</legend>
      <div className="field field-checkbox">
        <input id={`${id}-on`} type="checkbox" checked={recurring !== null} onChange={(e) => send({ recurring: e.currentTarget.checked ? defaultRecurring() : null })} />
        <label htmlFor={`${id}-on`}>{t`Repeat this transfer`}</label>
      </div>
      {recurring ? (
        <>
          <SelectField
            label={t`How often`}
            name="subscriptionFrequency"
            value={recurring.frequency}
            onChange={(v) => set({ frequency: v as RecurringForm['frequency'] })}
            options={(['daily', 'weekly', 'monthly'] as const).map((f) => ({ value: f, label: frequencies[f] }))}
            error={errorText(view.fieldErrors.recurringFrequency)}
          />
          <fieldset>
            <legend>{t`Ends`}</legend>
            <div className="field field-radio">
              <input id={`${id}-count`} type="radio" name="recurringEnd" checked={recurring.end === 'count'} onChange={() => set({ end: 'count' })} />
              <label htmlFor={`${id}-count`}>{t`After a number of transfers`}</label>
            </div>
            <div className="field field-radio">
              <input id={`${id}-date`} type="radio" name="recurringEnd" checked={recurring.end === 'date'} onChange={() => set({ end: 'date' })} />
              <label htmlFor={`${id}-date`}>{t`On a date`}</label>
            </div>
          </fieldset>
          {recurring.end === 'count' ? (
            <TextField
              label={t`Number of transfers, this one included`}
              name="subscriptionTransactions"
              inputMode="numeric"
              maxLength={4}
              value={recurring.transactions}
              onChange={(v) => set({ transactions: v })}
              error={errorText(view.fieldErrors.recurringTransactions)}
            />
          ) : (
            <TextField
              label={t`Last date`}
              name="subscriptionEndDate"
              type="date"
              value={recurring.endDate}
              onChange={(v) => set({ endDate: v })}
              error={errorText(view.fieldErrors.recurringEndDate)}
            />
          )}
          <div className="field field-checkbox">
            <input id={`${id}-cancel`} type="checkbox" checked={recurring.userCancel} onChange={(e) => set({ userCancel: e.currentTarget.checked })} />
            <label htmlFor={`${id}-cancel`}>{t`I can cancel the repeats later`}</label>
          </div>
        </>
      ) : null}
    </fieldset>
  );
}

/** What is being sent: the form's source, destination and the quote. */
function Summary({ view, countries }: { view: TransferFacts; countries: readonly CountryOption[] }) {
  const { t } = useLingui();
  const accountLabel = useAccountLabel();
  const frequencies = useFrequencyNames();
  const q = view.quote;
  const r = view.form.recurring;
  const payeeName = view.payee?.name;
  const email = view.form.payeeEmail.trim();
  const count = r?.transactions ?? '';
  const endDate = r?.endDate ?? '';
  return (
    <dl className="transfer-summary">
      <dt>{t`From`}</dt>
      <dd>{view.source ? accountLabel(view.source) : ''}</dd>
      {view.rules.route ? (
        <PayeeSummary view={view} countries={countries} />
      ) : (
        <>
          <dt>{t`To`}</dt>
          <dd>{view.rules.toAccount ? (view.destination ? accountLabel(view.destination) : '') : payeeName ? t`${payeeName} (${email})` : email}</dd>
        </>
      )}
      {q ? (
        <>
          <dt>{t`Amount`}</dt>
          <dd>{money(q.amount, q.currency)}</dd>
          <dt>{t`Fee`}</dt>
          <dd>{money(q.fee, q.feeCurrency)}</dd>
          {view.total ? (
            <>
              <dt>{t`You pay in total`}</dt>
              <dd>{money(view.total.amount, view.total.currency)}</dd>
            </>
          ) : null}
          {q.currency !== q.toCurrency ? (
            <>
              <dt>{t`Rate`}</dt>
              <dd>{`1 ${q.currency} = ${q.rate} ${q.toCurrency}`}</dd>
            </>
          ) : null}
          <dt>{view.kind === 'betweenAccounts' ? t`Arrives` : t`They receive`}</dt>
          <dd>{money(q.toAmount, q.toCurrency)}</dd>
        </>
      ) : null}
      {view.rules.details && view.form.note.trim() ? (
        <>
          <dt>{t`Note`}</dt>
          <dd>{view.form.note.trim()}</dd>
        </>
      ) : null}
      {view.rules.details && view.form.reference.trim() ? (
        <>
          <dt>{t`Reference`}</dt>
          <dd>{view.form.reference.trim()}</dd>
        </>
      ) : null}
      {r ? (
        <>
          <dt>{t`Repeats`}</dt>
          <dd>
            {frequencies[r.frequency]}, {r.end === 'count' ? t`${count} transfers in all` : t`until ${endDate}`}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function ReviewStep({ view, actor, countries }: { view: TransferFacts; actor: ActorRefFrom<TransferMachine>; countries: readonly CountryOption[] }) {
  const { t } = useLingui();
  return (
    <div className="transfer-page">
      <StepHeading>{t`Check the transfer`}</StepHeading>
      <Summary view={view} countries={countries} />
      {view.submitUnanswered ? (
        <Alert tone="error" title={t`We got no answer from the server.`}>
          <p>{t`Send it again: the transfer is made only once.`}</p>
        </Alert>
      ) : null}
      <div className="actions">
        <Button onClick={() => actor.send({ type: 'SUBMIT' })} busy={view.submitting}>
          {view.submitUnanswered ? t`Send again` : t`Send`}
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'REVIEW.BACK' })} disabled={view.submitting}>
          {t`Change`}
        </Button>
      </div>
    </div>
  );
}

function ResultSummary({ view }: { view: TransferFacts }) {
  const { t } = useLingui();
  const r = view.result!;
  return (
    <dl className="transfer-summary">
      <dt>{t`Amount`}</dt>
      <dd>{money(r.amount, r.currency)}</dd>
      <dt>{t`Fee`}</dt>
      <dd>{money(r.fee, r.feeCurrency)}</dd>
      <dt>{view.kind === 'betweenAccounts' ? t`Arrives` : t`They receive`}</dt>
      <dd>{money(r.toAmount, r.toCurrency)}</dd>
      <dt>{t`Transaction number`}</dt>
      <dd>{r.transactionId}</dd>
    </dl>
  );
}
