/**
 * /revenue-split/new (document 3 §2, §3 contract create payload and customer lookup, §5 rules, §7;
 * issue 19 item 1): the company, the counterparty found by e-mail (its name and type, and whether
 * a contract may be made with it: POST /contract/verify), who pays, the signers, each side's
 * obligations, the share, the first day and a note; then a review with a PDF preview, and Create,
 * which opens the new contract's page. A thin view of machines/contract-create.
 */
import { useEffect, useMemo, useRef, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { OBLIGATIONS_MAX, SIGNER_NAME_MAX } from '../../../api/contracts.ts';
import type { ContractCreateMachine } from '../../../machines/contract-create/contract-create.machine.ts';
import { selectContractCreateView } from '../../../machines/contract-create/contract-create.select.ts';
import { parsePercentage, type Side } from '../../../machines/contract-create/contract-create.rules.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { ArrowLeftIcon } from '../../ui/icons.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { createContractCreateLogic } from './actors.ts';
import { formatDay, formatPercentage } from './format.ts';
import { companiesQuery } from './queries.ts';
import type { ContractAccess } from './rest.ts';
import { failureText, fieldErrorText, verifyReasonText } from './words.ts';
import './contracts.css';

export type CompanyOption = { id: number; title: string };

export interface ContractCreatePageProps {
  access: ContractAccess;
  /** the customer acted for: the default company */
  companyId: number;
  onCreated(id: number): void;
  onCancel(): void;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/** The create form with the app's actors and the companies of GET /company (the route's entry point). */
export function ContractCreatePage({ access, companyId, onCreated, onCancel }: ContractCreatePageProps) {
  const client = useQueryClient();
  const companies = useQuery(companiesQuery(access));
  const logic = useMemo(() => createContractCreateLogic(access, client), [access, client]);
  const actor = useFlowActor(logic, { input: { companyId, today: todayUtc() } });
  return <ContractCreateView actor={actor} companies={companies.data ?? []} onCreated={onCreated} onCancel={onCancel} />;
}

export function ContractCreateView({
  actor,
  companies,
  onCreated,
  onCancel,
}: {
  actor: ActorRefFrom<ContractCreateMachine>;
  companies: readonly CompanyOption[];
  onCreated(id: number): void;
  onCancel(): void;
}) {
  const { t } = useLingui();
  const view = useSelector(actor, selectContractCreateView);
  const done = useRef(false);
  useEffect(() => {
    if (view.step !== 'created' || view.createdId === null || done.current) return;
    done.current = true;
    onCreated(view.createdId);
  }, [view.step, view.createdId, onCreated]);

  const d = view.draft;
  const e = view.fieldErrors;
  const other = view.counterparty?.name ?? t`the counterparty`;
  const company = companies.find((c) => c.id === d.companyId)?.title ?? t`this company`;
  const failure = view.failure ? (
    <Alert tone="error" title={t`That did not work`}>
      {failureText(view.failure.code, view.failure.message)}
    </Alert>
  ) : null;
  const back = (
    <p className="detail-back">
      <Button variant="link" onClick={onCancel}>
        <ArrowLeftIcon />
        {t`All contracts`}
      </Button>
    </p>
  );

  if (view.step === 'review' || view.step === 'created') {
    const [payer, beneficiary] = d.direction === 'pay' ? [company, other] : [other, company];
    const percentage = parsePercentage(d.percentage) ?? 0;
    return (
      <div className="contracts-page contract-form contract-review">
        {back}
        <StepHeading key="review">{t`Check the contract`}</StepHeading>
        {failure}
        <Card title={t`The split`} as="section">
          <p className="contract-share">{formatPercentage(percentage)}</p>
          <p>{t`of ${payer}’s incoming payments covered by the contract go to ${beneficiary}.`}</p>
          <dl className="detail-list">
            <div className="detail-row">
              <dt>{t`Active from`}</dt>
              <dd>{formatDay(`${d.activeFrom}T00:00:00Z`)}</dd>
            </div>
            {d.note.trim() ? (
              <div className="detail-row">
                <dt>{t`Note`}</dt>
                <dd>{d.note.trim()}</dd>
              </div>
            ) : null}
          </dl>
        </Card>
        <Card title={t`Parties`} as="section">
          <div className="contract-parties">
            <ReviewSide title={company} signer={d.ownSignerName} obligations={d.ownObligations} />
            <ReviewSide title={other} signer={d.counterpartySignerName} obligations={d.counterpartyObligations} />
          </div>
        </Card>
        {view.previewUrl ? (
          <Alert tone="success" title={t`The preview is ready`}>
            <a href={view.previewUrl} target="_blank" rel="noopener noreferrer">
              {t`Open the preview (PDF)`}
            </a>
          </Alert>
        ) : null}
        <ButtonGroup stackOnMobile>
          <Button busy={view.creating} disabled={view.busy && !view.creating} onClick={() => actor.send({ type: 'CREATE' })}>
            {t`Create the contract`}
          </Button>
          <Button variant="secondary" busy={view.previewing} disabled={view.busy && !view.previewing} onClick={() => actor.send({ type: 'PREVIEW' })}>
            {t`Preview the PDF`}
          </Button>
          <Button variant="link" disabled={view.busy} onClick={() => actor.send({ type: 'BACK' })}>
            {t`Change`}
          </Button>
        </ButtonGroup>
      </div>
    );
  }

  const lookupText =
    view.lookupError === 'invalidEmail'
      ? t`Enter an e-mail address.`
      : view.lookupError === 'notFound'
        ? t`No customer has this e-mail address.`
        : view.lookupError === 'network'
          ? t`No answer came. Check your connection and try again.`
          : view.lookupError === 'failed'
            ? t`The customer could not be looked up.`
            : (fieldErrorText(e.counterparty) ?? undefined);
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    actor.send({ type: 'CONTINUE' });
  };
  const obligations = (side: Side, legend: string) => {
    const items = side === 'own' ? d.ownObligations : d.counterpartyObligations;
    const error = fieldErrorText(side === 'own' ? e.ownObligations : e.counterpartyObligations);
    return (
      <fieldset className="contract-obligations">
        <legend>{legend}</legend>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        {items.map((text, index) => {
          const n = index + 1;
          return (
            <div className="contract-obligation" key={index}>
              <TextField
                label={t`Obligation ${n}`}
                name={`${side}-obligation-${index}`}
                value={text}
                maxLength={1000}
                onChange={(value) => actor.send({ type: 'OBLIGATION.CHANGE', side, index, text: value })}
              />
              {items.length > 1 ? (
                <Button variant="secondary" size="sm" onClick={() => actor.send({ type: 'OBLIGATION.REMOVE', side, index })} aria-label={t`Remove obligation ${n}`}>
                  {t`Remove`}
                </Button>
              ) : null}
            </div>
          );
        })}
        {items.length < OBLIGATIONS_MAX ? (
          <Button variant="link" onClick={() => actor.send({ type: 'OBLIGATION.ADD', side })}>
            {t`Add an obligation`}
          </Button>
        ) : null}
      </fieldset>
    );
  };

  return (
    <form className="contracts-page contract-form" onSubmit={submit} noValidate>
      {back}
      <StepHeading key="editing">{t`New contract`}</StepHeading>
      <p className="contracts-lead">{t`A share of one side’s incoming payments goes to the other while the contract is active. Both sides sign it after you create it.`}</p>
      {failure}
      <Card title={t`Who`} as="section">
        <SelectField
          label={t`Company`}
          name="companyId"
          value={d.companyId === null ? '' : String(d.companyId)}
          onChange={(value) => actor.send({ type: 'COMPANY.CHANGE', companyId: Number(value) })}
          options={(companies.some((c) => c.id === d.companyId) || d.companyId === null ? companies : [{ id: d.companyId, title: t`The company you act for` }, ...companies]).map(
            (c) => ({
              value: String(c.id),
              label: c.title,
            }),
          )}
          error={fieldErrorText(e.companyId)}
        />
        <div className="contract-lookup">
          <TextField
            label={t`Counterparty’s e-mail`}
            name="email"
            type="email"
            autoComplete="off"
            value={view.email}
            onChange={(email) => actor.send({ type: 'EMAIL.CHANGE', email })}
            error={lookupText}
          />
          <Button variant="secondary" busy={view.lookingUp || view.verifying} onClick={() => actor.send({ type: 'LOOKUP' })}>
            {t`Find`}
          </Button>
        </div>
        {view.counterparty ? (
          <p role="status">
            {view.counterparty.type === 'BUSINESS' ? t`${other} (business)` : t`${other} (person)`}
            {view.verdict ? ' · ' : ''}
            {view.verdict ? (view.verdict.isValid ? t`A contract can be made with this customer.` : verifyReasonText(view.verdict.reason)) : ''}
          </p>
        ) : null}
        <RadioGroup
          legend={t`Who pays`}
          name="direction"
          value={d.direction}
          onChange={(value) => actor.send({ type: 'DIRECTION.CHANGE', direction: value === 'receive' ? 'receive' : 'pay' })}
          options={[
            { value: 'pay', label: t`${company} pays a share to ${other}` },
            { value: 'receive', label: t`${other} pays a share to ${company}` },
          ]}
        />
      </Card>
      <Card title={t`Signers and obligations`} as="section">
        <TextField
          label={t`Signer for ${company}`}
          name="ownSignerName"
          value={d.ownSignerName}
          maxLength={SIGNER_NAME_MAX}
          autoComplete="off"
          onChange={(value) => actor.send({ type: 'FIELD.CHANGE', field: 'ownSignerName', value })}
          error={fieldErrorText(e.ownSignerName)}
        />
        <TextField
          label={t`Signer for ${other}`}
          name="counterpartySignerName"
          value={d.counterpartySignerName}
          maxLength={SIGNER_NAME_MAX}
          autoComplete="off"
          onChange={(value) => actor.send({ type: 'FIELD.CHANGE', field: 'counterpartySignerName', value })}
          error={fieldErrorText(e.counterpartySignerName)}
        />
        {obligations('own', t`Obligations of ${company}`)}
        {obligations('counterparty', t`Obligations of ${other}`)}
      </Card>
      <Card title={t`Terms`} as="section">
        <TextField
          label={t`Share of the payments (%)`}
          name="percentage"
          inputMode="decimal"
          value={d.percentage}
          hint={t`More than 0 and at most 100, with up to two decimals.`}
          onChange={(value) => actor.send({ type: 'FIELD.CHANGE', field: 'percentage', value })}
          error={fieldErrorText(e.percentage)}
        />
        <TextField
          label={t`Active from`}
          name="activeFrom"
          type="date"
          value={d.activeFrom}
          onChange={(value) => actor.send({ type: 'FIELD.CHANGE', field: 'activeFrom', value })}
          error={fieldErrorText(e.activeFrom)}
        />
        <TextField
          label={t`Note (optional)`}
          name="note"
          value={d.note}
          maxLength={1000}
          onChange={(value) => actor.send({ type: 'FIELD.CHANGE', field: 'note', value })}
          error={fieldErrorText(e.note)}
        />
      </Card>
      <ButtonGroup>
        <Button type="submit" disabled={view.busy}>
          {t`Continue`}
        </Button>
      </ButtonGroup>
    </form>
  );
}

function ReviewSide({ title, signer, obligations }: { title: string; signer: string; obligations: string[] }) {
  const { t } = useLingui();
  const signerName = signer.trim();
  return (
    <div>
      <h3>{title}</h3>
      <p>{t`Signer: ${signerName}`}</p>
      <ul>
        {obligations
          .filter((o) => o.trim() !== '')
          .map((o, i) => (
            <li key={i}>{o.trim()}</li>
          ))}
      </ul>
    </div>
  );
}
