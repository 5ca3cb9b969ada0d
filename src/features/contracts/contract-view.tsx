/**
 * /revenue-split/{contractId} (document 3 §2, §3 Contract, §4 Contracts, §7; issue 19 item 1): one
 * contract's whole life as the platform keeps it: the parties and their signers and obligations,
 * the share and who pays, the days, the status and the payer's identification, a termination
 * asked, the split so far, and the actions the shared rules allow now. A thin view of
 * machines/contract: reads contract.select.ts, sends events; each action asks first in a dialog.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { Contract } from '../../../api/contracts.ts';
import type { ConfirmAction, ContractMachine } from '../../../machines/contract/contract.machine.ts';
import { selectContractView } from '../../../machines/contract/contract.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { ArrowLeftIcon, DownloadIcon } from '../../ui/icons.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { createContractLogic } from './actors.ts';
import { counterpartyOf, formatDay, formatInstant, formatPercentage } from './format.ts';
import type { ContractAccess } from './rest.ts';
import { failureText, identificationText, paymentsText, statusNames, statusTones } from './words.ts';
import './contracts.css';

export interface ContractPageProps {
  access: ContractAccess;
  contractId: number;
  customerId: number;
  mayAct: boolean;
  /** the browser leaves for the e-signature page or the identity check */
  onLeave(url: string, kind: 'sign' | 'identify'): void;
  onBack(): void;
}

/** The contract's page with the app's actors (the route's entry point). */
export function ContractPage({ access, contractId, customerId, mayAct, onLeave, onBack }: ContractPageProps) {
  const client = useQueryClient();
  const logic = useMemo(() => createContractLogic(access, client), [access, client]);
  const actor = useFlowActor(logic, { input: { contractId, customerId, mayAct } });
  return <ContractView actor={actor} onLeave={onLeave} onBack={onBack} />;
}

export function ContractView({ actor, onLeave, onBack }: { actor: ActorRefFrom<ContractMachine>; onLeave: ContractPageProps['onLeave']; onBack(): void }) {
  const { t, i18n } = useLingui();
  const view = useSelector(actor, selectContractView);
  const left = useRef(false);
  useEffect(() => {
    if (!view.leaveTo || left.current) return;
    left.current = true;
    onLeave(view.leaveTo.url, view.leaveTo.kind);
  }, [view.leaveTo, onLeave]);

  const back = (
    <p className="detail-back">
      <Button variant="link" onClick={onBack}>
        <ArrowLeftIcon />
        {t`All contracts`}
      </Button>
    </p>
  );

  if (view.step === 'loading') {
    return (
      <div className="contracts-page contract-detail">
        {back}
        <h1>{t`Contract`}</h1>
        <Skeleton lines={6} label={t`Loading the contract`} />
      </div>
    );
  }
  if (view.step === 'failed' || !view.contract) {
    const code = view.loadFailure?.code ?? 'network';
    return (
      <div className="contracts-page contract-detail">
        {back}
        <StepHeading key="failed">{t`Contract`}</StepHeading>
        <Alert tone="error" title={code === 'notFound' ? t`Contract not found` : t`We could not load the contract.`}>
          {failureText(code, view.loadFailure?.message ?? null)}
        </Alert>
        {view.retryable ? (
          <div>
            <Button onClick={() => actor.send({ type: 'LOAD.RETRY' })}>{t`Try again`}</Button>
          </div>
        ) : null}
      </div>
    );
  }

  const c = view.contract;
  const other = counterpartyOf(c);
  const otherName = other.name;
  const contractId = c.id;
  const created = formatInstant(c.createdAt);
  const busy = view.working || view.signing || view.identifying || view.pdfLoading || view.reloading;
  const actionLabels: Record<ConfirmAction, string> = {
    cancel: t`Cancel the contract`,
    reject: t`Reject`,
    terminate: t`Terminate`,
    terminateCancel: t`Withdraw the termination`,
    terminateNow: t`End it now`,
  };
  const confirmTexts: Record<ConfirmAction, string> = {
    cancel: t`The contract is cancelled for both sides and never takes effect.`,
    reject: t`You decline the contract; it never takes effect.`,
    terminate: t`The contract ends after the notice period; payments are split until then. Say why you end it.`,
    terminateCancel: t`The contract stays in force as before.`,
    terminateNow: t`The contract ends at once: no further payments are split.`,
  };

  return (
    <div className="contracts-page contract-detail" aria-busy={busy}>
      {back}
      <div>
        <StepHeading key="shown">{t`Contract with ${otherName}`}</StepHeading>
        <p className="contracts-lead">{t`Contract number ${contractId} · created ${created}`}</p>
      </div>
      <p className="contract-badges">
        <Badge tone={statusTones[c.status]}>{i18n._(statusNames[c.status])}</Badge>
        {c.status === 'NEED_IDENTIFICATION' || c.identificationStatus === 'FAILED' ? (
          <Badge tone={c.identificationStatus === 'FAILED' ? 'danger' : 'info'}>{identificationText(c.identificationStatus)}</Badge>
        ) : null}
      </p>
      {view.error ? (
        <Alert tone={view.error.code === 'conflict' ? 'warning' : 'error'} title={view.error.code === 'conflict' ? t`This contract has changed` : t`That did not work`}>
          {failureText(view.error.code, view.error.message)}
        </Alert>
      ) : null}
      {view.pdfUrl ? (
        <Alert tone="success" title={t`The PDF is ready`}>
          <a href={view.pdfUrl} target="_blank" rel="noopener noreferrer">
            {t`Open the contract (PDF)`}
          </a>
        </Alert>
      ) : null}

      <Card title={t`The split`} as="section">
        <p className="contract-share">{formatPercentage(c.percentage)}</p>
        <p>
          {c.direction === 'PAY'
            ? t`of the incoming payments covered by this contract go from you to ${otherName}.`
            : t`of ${otherName}’s incoming payments covered by this contract go to you.`}
        </p>
        <dl className="detail-list">
          <Row label={t`Company`} value={c.company.title} />
          <Row label={t`Active from`} value={formatDay(c.activeFrom)} />
          {c.activeTo ? <Row label={t`Active until`} value={formatDay(c.activeTo)} /> : null}
          {c.note ? <Row label={t`Note`} value={c.note} /> : null}
          <Row
            label={t`Split so far`}
            value={c.splitTotals.length === 0 ? t`Nothing yet` : c.splitTotals.map((s) => `${s.amount} ${s.currency} (${paymentsText(s.count)})`).join(', ')}
          />
        </dl>
      </Card>

      {c.terminateInfo && (c.status === 'TERMINATING' || c.status === 'TERMINATED') ? (
        <Card title={t`Termination`} as="section">
          <dl className="detail-list">
            {c.terminateInfo.terminatedBy !== null ? <Row label={t`Asked by`} value={partyName(c, c.terminateInfo.terminatedBy)} /> : null}
            {c.terminateInfo.terminatedAt ? <Row label={c.status === 'TERMINATING' ? t`Ends on` : t`Ended on`} value={formatInstant(c.terminateInfo.terminatedAt)} /> : null}
            {c.terminateInfo.note ? <Row label={t`Reason`} value={c.terminateInfo.note} /> : null}
          </dl>
        </Card>
      ) : null}

      <Card title={t`Parties`} as="section">
        <div className="contract-parties">
          <Party title={t`Payer`} party={c.sender} signer={c.senderSignerName} obligations={c.senderObligations} signedAt={c.senderSignedAt} />
          <Party title={t`Beneficiary`} party={c.beneficiary} signer={c.beneficiarySignerName} obligations={c.beneficiaryObligations} signedAt={c.beneficiarySignedAt} />
        </div>
      </Card>

      <Card title={t`What you can do`} as="section">
        <div className="contract-actions">
          {view.actions.includes('sign') || view.signing ? (
            <Button busy={view.signing} disabled={busy && !view.signing} onClick={() => actor.send({ type: 'SIGN' })}>
              {t`Sign`}
            </Button>
          ) : null}
          {view.mayIdentify || view.identifying ? (
            <Button busy={view.identifying} disabled={busy && !view.identifying} onClick={() => actor.send({ type: 'IDENTIFY' })}>
              {t`Identify the signer`}
            </Button>
          ) : null}
          {(['cancel', 'reject', 'terminate', 'terminateCancel', 'terminateNow'] as const)
            .filter((a) => view.actions.includes(a))
            .map((a) => (
              <Button key={a} variant={a === 'terminateCancel' ? 'secondary' : 'danger'} onClick={() => actor.send({ type: 'ASK', action: a })}>
                {actionLabels[a]}
              </Button>
            ))}
          <Button variant="secondary" busy={view.pdfLoading} disabled={busy && !view.pdfLoading} onClick={() => actor.send({ type: 'PDF' })}>
            <DownloadIcon />
            {t`Get the PDF`}
          </Button>
        </div>
        {view.reloading ? <p className="row-note">{t`Reading the contract again…`}</p> : null}
      </Card>

      <Dialog
        open={view.confirming !== null}
        title={view.confirming ? actionLabels[view.confirming] : ''}
        onClose={() => actor.send({ type: 'DISMISS' })}
        actions={
          <>
            <Button variant={view.confirming === 'terminateCancel' ? 'primary' : 'danger'} busy={view.working} onClick={() => actor.send({ type: 'CONFIRM' })}>
              {t`Confirm`}
            </Button>
            <Button variant="secondary" disabled={view.working} onClick={() => actor.send({ type: 'DISMISS' })}>
              {t`Keep it`}
            </Button>
          </>
        }
      >
        <p>{view.confirming ? confirmTexts[view.confirming] : null}</p>
        {view.confirming === 'terminate' ? (
          <TextField
            label={t`Why do you end the contract?`}
            name="note"
            value={view.note}
            maxLength={1000}
            required
            disabled={view.working}
            onChange={(note) => actor.send({ type: 'NOTE.CHANGE', note })}
            error={view.noteError === 'missing' ? t`Say why you end the contract.` : view.noteError === 'long' ? t`Keep the reason to 1000 characters.` : undefined}
          />
        ) : null}
      </Dialog>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="detail-row">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Party({ title, party, signer, obligations, signedAt }: { title: string; party: Contract['sender']; signer: string; obligations: string[]; signedAt: string | null }) {
  const { t } = useLingui();
  return (
    <div>
      <h3>
        {title}: {party.name}
      </h3>
      <p className="row-note">{party.username}</p>
      <dl className="detail-list">
        <Row label={t`Signer`} value={signer} />
        <Row label={t`Signed`} value={signedAt ? formatInstant(signedAt) : t`Not yet`} />
      </dl>
      <p>{t`Obligations`}</p>
      <ul>
        {obligations.map((o, i) => (
          <li key={i}>{o}</li>
        ))}
      </ul>
    </div>
  );
}

function partyName(c: Contract, id: number): string {
  return id === c.sender.id ? c.sender.name : id === c.beneficiary.id ? c.beneficiary.name : String(id);
}
