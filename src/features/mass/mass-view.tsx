/**
 * A mass transfer page (/transfer/mass/p2p, /transfer/mass/{wire,eft,oct,digital} and their
 * confirm pages): the account and the CSV (or pasted lines), each refused row with its line and
 * column, the preview with each fee and the totals, the approval (the one approval view), the
 * rows being paid with a progress bar, and the result. A thin view of the mass transfer machine:
 * reads mass-transfer.select.ts, sends events.
 */
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { MassKind } from '../../../api/mass.ts';
import type { ApprovalMachine } from '../../../machines/approval/approval.machine.ts';
import type { MassTransferMachine } from '../../../machines/mass-transfer/mass-transfer.machine.ts';
import { SentForApprovalNote, useSentForApprovalTitle, type PendingPaymentsLink } from '../../lib/sent-for-approval.tsx';
import { selectMassView, type MassView } from '../../../machines/mass-transfer/mass-transfer.select.ts';
import { describeFailure } from '../../lib/request.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { Field } from '../../ui/field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { useAccountLabel } from '../../lib/account-label.ts';
import { useMethodNames } from '../transfers/messages.ts';
import { money } from '../transfers/fields.tsx';
import { LinesToFix } from './lines-to-fix.tsx';
import { ApprovalView } from '../transfers/approval-view.tsx';
import { useMassTitles } from './messages.ts';
import './mass.css';

type MassActor = ActorRefFrom<MassTransferMachine>;

/** The columns a kind's file takes, as the sample has them (api/mass.ts). */
export interface MassViewOptions {
  /** downloads the kind's sample file (massSampleLinkList) */
  onSample?: (() => void) | undefined;
  /** a link to the batches page */
  batchesLink?: ReactNode;
  /** the router's link to the history, where a payment waiting for approval shows as pending (a plain anchor without one) */
  pendingLink?: PendingPaymentsLink | undefined;
}

export function MassTransferView({ actor, onSample, batchesLink, pendingLink }: { actor: MassActor } & MassViewOptions) {
  const { t } = useLingui();
  const view = useSelector(actor, selectMassView);
  const titles = useMassTitles();
  const title = titles[view.kind];
  const sentForApproval = useSentForApprovalTitle();
  // approved by its initiator (right 3), the batch waits for the company's checker: nothing is paid yet
  const awaitingChecker = view.step === 'paying' && view.batch?.status === 'awaitingApproval';

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
    case 'editing':
      body = <MassForm actor={actor} view={view} onSample={onSample} />;
      break;
    case 'previewing':
      body = <MassPreviewStep actor={actor} view={view} />;
      break;
    case 'approving':
      body = view.approval ? <ApprovalView actor={view.approval as ActorRefFrom<ApprovalMachine>} /> : <Spinner label={t`Finishing`} />;
      break;
    case 'paying':
    case 'done':
      body = awaitingChecker ? (
        <>
          <SentForApprovalNote link={pendingLink} />
          <ButtonGroup>{batchesLink}</ButtonGroup>
        </>
      ) : (
        <MassProgress actor={actor} view={view} batchesLink={batchesLink} />
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
  const stepTitle: Record<MassView['step'], string> = {
    loading: title,
    loadFailed: title,
    editing: title,
    previewing: t`Check the payments`,
    approving: t`Approve the batch`,
    paying: awaitingChecker ? sentForApproval : t`Paying`,
    done: view.batch?.status === 'done' ? t`All payments made` : t`Batch finished`,
    failed: t`Batch not approved`,
  };
  return (
    <div className="transfer-page mass-page">
      {/* a new heading for each step: it takes the focus (focus management on steps) */}
      <StepHeading key={view.step}>{stepTitle[view.step]}</StepHeading>
      {body}
    </div>
  );
}

/** The columns of each kind, for the form's help text (the payout forms add the method's fields). */
function useColumnsHelp(kind: MassKind): string {
  const { t } = useLingui();
  return kind === 'p2p'
    ? t`One payment a line: email, amount, and optionally note and currency (the account's).`
    : t`One payment a line: countryCode, amount, optionally reference and currency (the account's), and the payee's details as the sample file names them.`;
}

function MassForm({ actor, view, onSample }: { actor: MassActor; view: MassView; onSample?: (() => void) | undefined }) {
  const { t } = useLingui();
  const accountLabel = useAccountLabel();
  const help = useColumnsHelp(view.kind);
  const errorList = view.errors;
  const accountError = errorList.account[0] ? validationMessage(errorList.account[0]) : undefined;
  const fileError = view.missing
    ? view.form.source === 'file'
      ? t`Choose a CSV file.`
      : t`Paste at least one line.`
    : errorList.file[0]
      ? validationMessage(errorList.file[0])
      : undefined;
  const busy = view.busy;
  return (
    <form
      className="mass-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'BATCH.CHECK' });
      }}
    >
      <p className="mass-intro">{help}</p>
      {onSample ? (
        <p>
          <Button variant="secondary" size="sm" onClick={onSample}>
            {t`Download a sample file`}
          </Button>
        </p>
      ) : null}
      {view.failure ? (
        <Alert tone="error" title={view.failure.responseCode === 'network' ? t`We could not reach the bank. Check your connection and try again.` : t`The batch could not be checked.`}>
          {view.failure.responseCode !== 'network' ? <p>{describeFailure(view.failure)}</p> : null}
        </Alert>
      ) : null}
      <SelectField
        label={t`Pay from`}
        name="accountId"
        value={view.form.accountId === null ? '' : String(view.form.accountId)}
        onChange={(value) => actor.send({ type: 'FORM.ACCOUNT', accountId: Number(value) })}
        options={view.accounts.map((a) => ({ value: String(a.accountId), label: `${accountLabel(a)} · ${money(a.balance, a.currency)}` }))}
        error={accountError}
        disabled={busy}
      />
      {view.kind === 'p2p' ? (
        <RadioGroup
          legend={t`Payments from`}
          name="source"
          inline
          value={view.form.source}
          onChange={(value) => actor.send({ type: 'FORM.SOURCE', source: value === 'text' ? 'text' : 'file' })}
          options={[
            { value: 'file', label: t`A CSV file` },
            { value: 'text', label: t`Lines I paste` },
          ]}
          disabled={busy}
        />
      ) : null}
      {view.form.source === 'file' ? (
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
      ) : (
        <Field label={t`Payments, one a line`} hint={t`For example: friend@example.com, 25.00, Dinner`} error={fileError}>
          {(control) => (
            <textarea
              {...control}
              name="text"
              rows={8}
              className="input mass-text"
              value={view.form.text}
              disabled={busy}
              onChange={(e) => actor.send({ type: 'FORM.TEXT', text: e.currentTarget.value })}
            />
          )}
        </Field>
      )}
      {view.form.source === 'file' && view.form.file ? <p className="field-hint">{t`Chosen: ${view.form.file.name}`}</p> : null}
      {errorList.rows.length > 0 ? <LinesToFix rows={errorList.rows} again={t`Correct the file and check it again.`} /> : null}
      <ButtonGroup>
        <Button type="submit" busy={busy}>
          {t`Check the payments`}
        </Button>
      </ButtonGroup>
    </form>
  );
}

function MassPreviewStep({ actor, view }: { actor: MassActor; view: MassView }) {
  const { t } = useLingui();
  const methodNames = useMethodNames();
  const preview = view.preview!;
  const currency = preview.currency;
  const count = preview.count;
  return (
    <div className="mass-preview">
      {view.canceled ? <Alert tone="info" title={t`The batch was canceled. Nothing was paid.`} /> : null}
      {view.failure ? (
        <Alert tone="error" title={view.unanswered ? t`We did not get an answer. Confirm again: the batch will not be made twice.` : t`The batch was not accepted.`}>
          {view.failure.responseCode !== 'network' ? <p>{describeFailure(view.failure)}</p> : null}
        </Alert>
      ) : null}
      <Card title={t`Summary`}>
        <dl className="transfer-summary">
          <dt>{t`Payments`}</dt>
          <dd>{count}</dd>
          {view.kind !== 'p2p' ? (
            <>
              <dt>{t`Method`}</dt>
              <dd>{methodNames[view.kind].name}</dd>
            </>
          ) : null}
          <dt>{t`Amounts`}</dt>
          <dd>{money(preview.total, currency)}</dd>
          <dt>{t`Fees`}</dt>
          <dd>{money(preview.fee, currency)}</dd>
          <dt>{t`Total to pay`}</dt>
          <dd className="transfer-summary-total">{money(preview.grandTotal, currency)}</dd>
        </dl>
      </Card>
      <DataTable
        caption={t`Payments in this batch`}
        rows={preview.rows}
        rowKey={(r) => r.line}
        card
        columns={[
          { header: t`Line`, render: (r) => r.line, align: 'end' },
          { header: view.kind === 'p2p' ? t`E-mail` : t`Payee`, render: (r) => r.payee },
          ...(view.kind !== 'p2p' ? [{ header: t`Country`, render: (r: (typeof preview.rows)[number]) => r.countryCode ?? '' }] : []),
          { header: t`Amount`, render: (r) => money(r.amount, currency), align: 'end' as const },
          { header: t`Fee`, render: (r) => money(r.fee, currency), align: 'end' as const },
        ]}
      />
      <ButtonGroup stackOnMobile>
        <Button busy={view.busy} onClick={() => actor.send({ type: 'BATCH.CONFIRM' })}>
          {t`Pay ${count} payments · ${money(preview.grandTotal, currency)}`}
        </Button>
        <Button variant="secondary" disabled={view.busy} onClick={() => actor.send({ type: 'BATCH.EDIT' })}>
          {view.form.source === 'file' ? t`Change the file` : t`Change the payments`}
        </Button>
      </ButtonGroup>
    </div>
  );
}

function MassProgress({ actor, view, batchesLink }: { actor: MassActor; view: MassView; batchesLink?: ReactNode }) {
  const { t } = useLingui();
  const batch = view.batch;
  const count = view.created?.count ?? batch?.count ?? 0;
  const handled = batch ? batch.doneCount + batch.failedCount : 0;
  const progress = batch?.progress ?? 0;
  const done = view.step === 'done';
  return (
    <div className="mass-progress">
      {done && batch ? (
        batch.status === 'done' ? (
          <Alert tone="success" title={t`All ${count} payments were made.`} />
        ) : (
          <Alert tone="warning" title={t`${batch.doneCount} of ${count} payments were made; ${batch.failedCount} could not be.`}>
            <p>{t`The money of the payments not made is available again. The batch shows why each one failed.`}</p>
          </Alert>
        )
      ) : (
        <p>{t`Your payments are being made. You can leave this page: they go on without it.`}</p>
      )}
      <div className="export-progress">
        <label htmlFor="mass-progress">{t`Payments handled: ${handled} of ${count}`}</label>
        <progress id="mass-progress" max={100} value={progress} />
      </div>
      <ButtonGroup>
        {batchesLink}
        {done ? (
          <Button variant="secondary" onClick={() => actor.send({ type: 'BATCH.NEW' })}>
            {t`Start another batch`}
          </Button>
        ) : null}
      </ButtonGroup>
    </div>
  );
}
