/**
 * The global-pay batch pages (/transfer/mass/global and /transfer/external/global-summary): the
 * account, the batch's name and the CSV; "the same file before" asked; each refused row with its
 * line and column; the draft's payments (removed ones struck, with Restore) with a selection whose
 * fee side and methods are set; the summary; the approval (the one approval view); the batch
 * submitted, and its cancel. A thin view of the global-pay batch machine: reads
 * global-pay-batch.select.ts, sends events.
 */
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { GlobalPaymentStatus } from '../../../api/global-pay.ts';
import type { PayoutMethod } from '../../../api/payees/payout-methods.ts';
import type { ApprovalMachine } from '../../../machines/approval/approval.machine.ts';
import type { GlobalPayBatchMachine, GlobalPayment } from '../../../machines/global-pay-batch/global-pay-batch.machine.ts';
import { SentForApprovalNote, useSentForApprovalTitle, type PendingPaymentsLink } from '../../lib/sent-for-approval.tsx';
import { selectGlobalPayView, sumDecimals, type GlobalPayView } from '../../../machines/global-pay-batch/global-pay-batch.select.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { describeFailure } from '../../lib/request.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { CheckboxField } from '../../ui/choice-fields.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field } from '../../ui/field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useAccountLabel } from '../../lib/account-label.ts';
import { money } from '../transfers/fields.tsx';
import { LinesToFix } from '../mass/lines-to-fix.tsx';
import { useMethodNames } from '../transfers/messages.ts';
import { ApprovalView } from '../transfers/approval-view.tsx';
import '../mass/mass.css';
import './batch.css';

type GlobalPayActor = ActorRefFrom<GlobalPayBatchMachine>;

export function GlobalPayBatchView({ actor, batchesLink, pendingLink }: { actor: GlobalPayActor; batchesLink?: ReactNode; pendingLink?: PendingPaymentsLink | undefined }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectGlobalPayView);
  const sentForApproval = useSentForApprovalTitle();
  // submitted (and approved) by its right-3 initiator, the batch waits for the company's checker: nobody is e-mailed yet
  const awaitingChecker = view.step === 'done' && view.submitted?.status === 'pending';

  let body: ReactNode;
  switch (view.step) {
    case 'loading':
      body = <Spinner label={t`Loading your accounts`} />;
      break;
    case 'loadFailed':
      body = (
        <>
          <Alert tone="error" title={t`We could not load your accounts.`}>
            {view.loadFailure?.ok === false && view.loadFailure.code === 'failed' ? <p>{describeFailure(view.loadFailure.failure)}</p> : null}
          </Alert>
          <Button onClick={() => actor.send({ type: 'LOAD.RETRY' })}>{t`Try again`}</Button>
        </>
      );
      break;
    case 'form':
      body = <UploadForm actor={actor} view={view} />;
      break;
    case 'identical': {
      const date = formatDateTime(view.identical!.date, getUiLanguageTag());
      body = (
        <>
          <Alert tone="warning" title={t`A batch with the same file was uploaded on ${date}.`}>
            <p>{t`Upload it again as a new batch?`}</p>
          </Alert>
          <ButtonGroup stackOnMobile>
            <Button onClick={() => actor.send({ type: 'IDENTICAL.YES' })}>{t`Upload it again`}</Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'IDENTICAL.NO' })}>
              {t`No, go back`}
            </Button>
          </ButtonGroup>
        </>
      );
      break;
    }
    case 'draft':
      body = <DraftStep actor={actor} view={view} />;
      break;
    case 'summary':
      body = <SummaryStep actor={actor} view={view} />;
      break;
    case 'approving':
      body = (
        <>
          <Totals view={view} />
          {view.approval ? <ApprovalView actor={view.approval as ActorRefFrom<ApprovalMachine>} /> : <Spinner label={t`Finishing`} />}
        </>
      );
      break;
    case 'done':
      body = <DoneStep actor={actor} view={view} batchesLink={batchesLink} awaitingChecker={awaitingChecker} pendingLink={pendingLink} />;
      break;
    case 'canceled':
      body = (
        <>
          <Alert tone="info" title={t`The batch was canceled.`}>
            <p>{t`The money of the payments not taken is available again.`}</p>
          </Alert>
          <ButtonGroup>
            {batchesLink}
            <Button variant="secondary" onClick={() => actor.send({ type: 'BATCH.NEW' })}>
              {t`Start another batch`}
            </Button>
          </ButtonGroup>
        </>
      );
      break;
    case 'failed':
      body = (
        <>
          <Alert tone="error" title={view.outcome?.reason === 'expired' ? t`The approval time ran out.` : t`The batch was not approved.`}>
            <p>{t`No payment was made and the money held for the batch is available again.`}</p>
            {view.outcome?.failure ? <p>{describeFailure(view.outcome.failure)}</p> : null}
          </Alert>
          <Button onClick={() => actor.send({ type: 'BATCH.NEW' })}>{t`Start another batch`}</Button>
        </>
      );
      break;
  }
  const stepTitle: Record<GlobalPayView['step'], string> = {
    loading: t`Global pay`,
    loadFailed: t`Global pay`,
    form: t`Global pay`,
    identical: t`Upload the same file again?`,
    draft: t`Check the draft batch`,
    summary: t`Batch summary`,
    approving: t`Approve the batch`,
    done: awaitingChecker ? sentForApproval : t`Batch submitted`,
    canceled: t`Batch canceled`,
    failed: t`Batch not approved`,
  };
  return (
    <div className="transfer-page mass-page global-pay-page">
      {/* a new heading for each step: it takes the focus (focus management on steps) */}
      <StepHeading key={view.step}>{stepTitle[view.step]}</StepHeading>
      {body}
    </div>
  );
}

function FailureAlert({ view, title }: { view: GlobalPayView; title: string }) {
  const { t } = useLingui();
  if (!view.failure) return null;
  return view.failure.responseCode === 'network' ? (
    <Alert tone="error" title={t`We could not reach the bank. Check your connection and try again.`} />
  ) : (
    <Alert tone="error" title={title}>
      <p>{describeFailure(view.failure)}</p>
    </Alert>
  );
}

function UploadForm({ actor, view }: { actor: GlobalPayActor; view: GlobalPayView }) {
  const { t } = useLingui();
  const accountLabel = useAccountLabel();
  const errors = view.errors;
  const other = errors.other;
  const nameError =
    view.missing && view.form.batchName.trim() === ''
      ? t`Name the batch.`
      : other.find((e) => e.param === 'batchName')
        ? validationMessage(other.find((e) => e.param === 'batchName')!)
        : undefined;
  const fileError = view.missing && view.form.file === null ? t`Choose a CSV file.` : errors.file[0] ? validationMessage(errors.file[0]) : undefined;
  const accountError = errors.account[0] ? validationMessage(errors.account[0]) : undefined;
  // any other check the platform names (not a field of this form)
  const rest = other.filter((e) => e.param !== 'batchName');
  const busy = view.uploading;
  const fileName = view.form.file?.name;
  return (
    <form
      className="mass-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'UPLOAD' });
      }}
    >
      <p className="mass-intro">{t`Pay people who need no account with us: each one gets an e-mail with a link and chooses how to take the money. The file has the columns beneficiaryName, beneficiaryEmail, beneficiaryCountryCode, amount, description, and optionally beneficiaryType and feeShare.`}</p>
      {view.discarded ? <Alert tone="info" title={t`The draft was discarded. Nothing was paid.`} /> : null}
      <FailureAlert view={view} title={t`The file could not be uploaded.`} />
      <SelectField
        label={t`Pay from`}
        name="accountId"
        value={view.form.accountId === null ? '' : String(view.form.accountId)}
        onChange={(value) => actor.send({ type: 'FORM.ACCOUNT', accountId: Number(value) })}
        options={view.accounts.map((a) => ({ value: String(a.accountId), label: `${accountLabel(a)} · ${money(a.balance, a.currency)}` }))}
        error={accountError}
        disabled={busy}
      />
      <TextField
        label={t`Batch name`}
        name="batchName"
        value={view.form.batchName}
        maxLength={100}
        onChange={(value) => actor.send({ type: 'FORM.NAME', batchName: value })}
        error={nameError}
        disabled={busy}
      />
      <Field label={t`CSV file`} hint={t`Up to 1,000 payments, 1 MB.`} error={fileError}>
        {(control) => (
          <input
            {...control}
            type="file"
            name="file"
            accept=".csv,text/csv,text/plain"
            disabled={busy}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              actor.send({ type: 'FORM.FILE', file: file ? { name: file.name, content: file } : null });
            }}
          />
        )}
      </Field>
      {fileName ? <p className="field-hint">{t`Chosen: ${fileName}`}</p> : null}
      {rest.length > 0 ? (
        <Alert tone="error" title={t`The file could not be uploaded.`}>
          {rest.map((e, i) => (
            <p key={i}>{validationMessage(e)}</p>
          ))}
        </Alert>
      ) : null}
      {errors.rows.length > 0 ? <LinesToFix rows={errors.rows} again={t`Correct the file and upload it again.`} /> : null}
      <ButtonGroup>
        <Button type="submit" busy={busy}>
          {t`Upload the file`}
        </Button>
      </ButtonGroup>
    </form>
  );
}

function useStatusNames(): Record<GlobalPaymentStatus, string> {
  const { t } = useLingui();
  return {
    draft: t`Draft`,
    deleted: t`Removed`,
    awaitingApproval: t`Awaiting approval`,
    waiting: t`Waiting for the payee`,
    processing: t`Being paid out`,
    completed: t`Completed`,
    returned: t`Returned`,
    failed: t`Failed`,
    refused: t`Refused by the payee`,
    expired: t`Expired`,
    canceled: t`Canceled`,
  };
}

function DraftStep({ actor, view }: { actor: GlobalPayActor; view: GlobalPayView }) {
  const { t } = useLingui();
  const methodNames = useMethodNames();
  const statusNames = useStatusNames();
  const batch = view.batch!;
  const currency = batch.currency;
  const busy = view.busy;
  const live = view.payments.filter((p) => p.status !== 'deleted');
  const allSelected = live.length > 0 && live.every((p) => view.selection.includes(p.id));
  const marked = view.paymentErrors;
  const toggle = (id: number, on: boolean) => actor.send({ type: 'DRAFT.SELECT', ids: on ? [...view.selection, id] : view.selection.filter((x) => x !== id) });
  const methodsCell = (p: GlobalPayment) => (
    <ul className="global-pay-methods">
      {p.paymentMethods.map((m) => {
        const name = methodNames[m.name].name;
        return <li key={m.name}>{m.forbidden ? <del>{t`${name} (forbidden)`}</del> : name}</li>;
      })}
    </ul>
  );
  const count = batch.count;
  const total = money(batch.total, currency);
  const batchName = batch.name;
  return (
    <div className="mass-preview">
      <FailureAlert view={view} title={t`The change was not made.`} />
      {marked.size > 0 ? (
        <Alert tone="error" title={marked.size === 1 ? t`One payment is outside a method's limits.` : t`${marked.size} payments are outside a method's limits.`}>
          <p>{t`Forbid that method for it or remove the payment, then continue again.`}</p>
        </Alert>
      ) : null}
      <p>{t`${batchName}: ${count} payments, ${total}. Nothing is held until you submit the batch.`}</p>
      <Card title={t`Change the selected payments`}>
        <p className="field-hint">{t`Selected: ${view.selection.length}`}</p>
        <ButtonGroup label={t`Who pays the fee`} stackOnMobile>
          <Button variant="secondary" size="sm" disabled={!view.canSetFee || busy} onClick={() => actor.send({ type: 'FEE.SET', feeShare: 'sender' })}>
            {t`I pay the fee`}
          </Button>
          <Button variant="secondary" size="sm" disabled={!view.canSetFee || busy} onClick={() => actor.send({ type: 'FEE.SET', feeShare: 'beneficiary' })}>
            {t`The payee pays the fee`}
          </Button>
        </ButtonGroup>
        <SelectField
          label={t`Payout method`}
          name="method"
          value={view.method ?? ''}
          placeholder={t`Choose a method`}
          onChange={(value) => actor.send({ type: 'DRAFT.METHOD', method: value === '' ? null : (value as PayoutMethod) })}
          options={view.methods.map((m) => ({ value: m, label: methodNames[m].name }))}
          disabled={busy || view.methods.length === 0}
        />
        <ButtonGroup label={t`The method for the selected payments`} stackOnMobile>
          <Button variant="secondary" size="sm" disabled={!view.canSetMethod || busy} onClick={() => actor.send({ type: 'METHOD.SET', forbidden: true })}>
            {t`Forbid the method`}
          </Button>
          <Button variant="secondary" size="sm" disabled={!view.canSetMethod || busy} onClick={() => actor.send({ type: 'METHOD.SET', forbidden: false })}>
            {t`Allow the method`}
          </Button>
        </ButtonGroup>
      </Card>
      <CheckboxField
        label={t`Select all payments`}
        checked={allSelected}
        disabled={busy || live.length === 0}
        onChange={(on) => actor.send({ type: 'DRAFT.SELECT', ids: on ? live.map((p) => p.id) : [] })}
      />
      <DataTable
        caption={t`Payments in this batch`}
        rows={view.payments}
        rowKey={(p) => p.id}
        card
        className="global-pay-table"
        columns={[
          {
            header: t`Select`,
            hideHeader: true,
            render: (p) => {
              const name = p.beneficiaryName;
              return p.status === 'deleted' ? null : (
                <CheckboxField
                  label={<span className="visually-hidden">{t`Select ${name}`}</span>}
                  checked={view.selection.includes(p.id)}
                  disabled={busy}
                  onChange={(on) => toggle(p.id, on)}
                />
              );
            },
          },
          {
            // the e-mail under the name: one column less, so the table fits a laptop's width
            header: t`Payee`,
            render: (p) => {
              const who = (
                <>
                  {p.beneficiaryName}
                  <span className="global-pay-email">{p.beneficiaryEmail}</span>
                </>
              );
              return p.status === 'deleted' ? <del>{who}</del> : who;
            },
          },
          { header: t`Country`, render: (p) => p.beneficiaryCountryCode },
          { header: t`Amount`, render: (p) => (p.status === 'deleted' ? <del>{money(p.amount, currency)}</del> : money(p.amount, currency)), align: 'end' },
          { header: t`Fee paid by`, render: (p) => (p.feeShare === 'sender' ? t`You` : t`The payee`) },
          { header: t`Methods offered`, render: methodsCell },
          {
            header: t`Status`,
            render: (p) => (
              <>
                <Badge tone={p.status === 'deleted' ? 'neutral' : marked.has(p.id) ? 'danger' : 'info'}>{statusNames[p.status]}</Badge>
                {(marked.get(p.id) ?? []).map((e, i) => (
                  <span key={i} className="field-error">
                    {validationMessage(e)}
                  </span>
                ))}
              </>
            ),
          },
          {
            header: t`Actions`,
            hideHeader: true,
            render: (p) => {
              const name = p.beneficiaryName;
              return p.status === 'deleted' ? (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  aria-label={t`Restore the payment to ${name}`}
                  onClick={() => actor.send({ type: 'PAYMENT.RESTORE', id: p.id })}
                >
                  {t`Restore`}
                </Button>
              ) : (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  aria-label={t`Remove the payment to ${name}`}
                  onClick={() => actor.send({ type: 'PAYMENT.REMOVE', id: p.id })}
                >
                  {t`Remove`}
                </Button>
              );
            },
          },
        ]}
      />
      {view.saving ? <Spinner label={t`Saving the change`} /> : null}
      <ButtonGroup stackOnMobile>
        <Button disabled={busy || count === 0} onClick={() => actor.send({ type: 'DRAFT.CONTINUE' })}>
          {t`Continue`}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => actor.send({ type: 'DRAFT.DISCARD' })}>
          {t`Discard the draft`}
        </Button>
      </ButtonGroup>
      <Dialog
        open={view.askingDiscard}
        title={t`Discard the draft?`}
        onClose={() => (view.discarding ? undefined : actor.send({ type: 'DISCARD.KEEP' }))}
        actions={
          <>
            <Button variant="danger" busy={view.discarding} onClick={() => actor.send({ type: 'DISCARD.CONFIRM' })}>
              {t`Yes, discard the draft`}
            </Button>
            <Button variant="secondary" disabled={view.discarding} onClick={() => actor.send({ type: 'DISCARD.KEEP' })}>
              {t`Keep the draft`}
            </Button>
          </>
        }
      >
        <p>{t`The batch and its payments are deleted. Nothing was held or paid.`}</p>
      </Dialog>
    </div>
  );
}

function SummaryStep({ actor, view }: { actor: GlobalPayActor; view: GlobalPayView }) {
  const { t } = useLingui();
  const accountLabel = useAccountLabel();
  const batch = view.batch!;
  const currency = batch.currency;
  const payees = batch.payments.filter((p) => p.status !== 'deleted' && p.feeShare === 'beneficiary').length;
  return (
    <div className="mass-preview">
      {view.failure ? (
        <Alert tone="error" title={view.unanswered ? t`We did not get an answer. Submit again: the batch will not be submitted twice.` : t`The batch was not accepted.`}>
          {view.failure.responseCode !== 'network' ? <p>{describeFailure(view.failure)}</p> : null}
        </Alert>
      ) : null}
      <Card title={t`Summary`}>
        <dl className="transfer-summary">
          <dt>{t`Batch`}</dt>
          <dd>{batch.name}</dd>
          <dt>{t`Pay from`}</dt>
          <dd>{view.account ? accountLabel(view.account) : batch.accountId}</dd>
          <dt>{t`Payments`}</dt>
          <dd>{batch.count}</dd>
          <dt>{t`Amounts`}</dt>
          <dd>{money(batch.total, currency)}</dd>
          <dt>{t`Fees paid by the payees`}</dt>
          <dd>{payees}</dd>
          <dt>{t`Fees held`}</dt>
          <dd>{view.quoting ? t`Working them out…` : view.quote ? money(view.quote.fee, currency) : t`Worked out when you submit`}</dd>
          <dt>{t`Total to hold`}</dt>
          <dd className="transfer-summary-total">{view.quote ? money(view.quote.total, currency) : '—'}</dd>
        </dl>
      </Card>
      <p>{t`When you submit, the amounts are held on your account with, for each payment whose fee you pay, the largest fee among the methods its payee may choose. What the payee's choice does not use comes back. Each payee is then e-mailed a link.`}</p>
      <ButtonGroup stackOnMobile>
        <Button busy={view.submitting} disabled={!view.canSubmit} onClick={() => actor.send({ type: 'SUBMIT' })}>
          {t`Submit the batch`}
        </Button>
        <Button variant="secondary" disabled={view.submitting} onClick={() => actor.send({ type: 'SUMMARY.BACK' })}>
          {t`Back to the draft`}
        </Button>
      </ButtonGroup>
    </div>
  );
}

/** What the submission held: the amounts, the held fee and their total. */
function Totals({ view }: { view: GlobalPayView }) {
  const { t } = useLingui();
  const submitted = view.submitted;
  if (!submitted) return null;
  const grand = sumDecimals([submitted.amount, submitted.fee]);
  return (
    <Card title={t`Held on your account`}>
      <dl className="transfer-summary">
        <dt>{t`Payments`}</dt>
        <dd>{view.batch?.count}</dd>
        <dt>{t`Amounts`}</dt>
        <dd>{money(submitted.amount, submitted.currency)}</dd>
        <dt>{t`Fees held`}</dt>
        <dd>{money(submitted.fee, submitted.currency)}</dd>
        <dt>{t`Total held`}</dt>
        <dd className="transfer-summary-total">{money(grand, submitted.currency)}</dd>
      </dl>
    </Card>
  );
}

function DoneStep({
  actor,
  view,
  batchesLink,
  awaitingChecker,
  pendingLink,
}: {
  actor: GlobalPayActor;
  view: GlobalPayView;
  batchesLink?: ReactNode;
  awaitingChecker: boolean;
  pendingLink?: PendingPaymentsLink | undefined;
}) {
  const { t } = useLingui();
  return (
    <div className="mass-progress">
      {awaitingChecker ? (
        <SentForApprovalNote link={pendingLink} />
      ) : (
        <Alert tone="success" title={t`The batch was submitted.`}>
          <p>{t`Each payee gets an e-mail with a link to take the payment.`}</p>
        </Alert>
      )}
      <FailureAlert view={view} title={t`The batch could not be canceled.`} />
      <Totals view={view} />
      <ButtonGroup stackOnMobile>
        {batchesLink}
        <Button variant="secondary" disabled={view.busy} onClick={() => actor.send({ type: 'BATCH.CANCEL' })}>
          {t`Cancel the batch`}
        </Button>
        <Button variant="secondary" disabled={view.busy} onClick={() => actor.send({ type: 'BATCH.NEW' })}>
          {t`Start another batch`}
        </Button>
      </ButtonGroup>
      <Dialog
        open={view.askingCancel}
        title={t`Cancel the batch?`}
        onClose={() => (view.canceling ? undefined : actor.send({ type: 'CANCEL.KEEP' }))}
        actions={
          <>
            <Button variant="danger" busy={view.canceling} onClick={() => actor.send({ type: 'CANCEL.CONFIRM' })}>
              {t`Yes, cancel the batch`}
            </Button>
            <Button variant="secondary" disabled={view.canceling} onClick={() => actor.send({ type: 'CANCEL.KEEP' })}>
              {t`Keep the batch`}
            </Button>
          </>
        }
      >
        <p>{t`The payments not yet taken are canceled and their money comes back to your account. Payments already taken are not affected.`}</p>
      </Dialog>
    </div>
  );
}
