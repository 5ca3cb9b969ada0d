/**
 * One customer in the admin overview (document 1 §6 administrator): the customer's documents with
 * reassign (to another customer id) and remove; limit with a reason (and the document types that
 * lift it) or unlimit; the financial info; the due-diligence level. One-shot edits: each is a form
 * with its call; failures show on the form (VF lines `param: description`). Every change is
 * audited by the platform.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { AdminCustomer } from '../../../api/admin.ts';
import { representativeKinds, representativeName } from '../../../api/business.ts';
import { LIMIT_REASONS } from '../../../api/profile.ts';
import { DocumentCategory, DocumentStatus, documentState } from '../../../api/verification.ts';
import { formatDate } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, callMethodOrThrow, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CheckboxField } from '../../ui/choice-fields.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { limitCustomer, reassignDocument, removeDocument, removeRepresentative, unlimitCustomer, updateDueDiligence, updateFinancialInfo, type CallOutcome } from './admin-calls.ts';
import { useDocumentCategoryNames, useDocumentStateNames, useDocumentStatusNames } from './messages.ts';
import { adminReviewKey, companyRepresentativesQuery, customerDocumentsQuery } from './review-queries.ts';

type LimitReason = (typeof LIMIT_REASONS)[number];

export function CustomerPanel({ customer, onClose }: { customer: AdminCustomer; onClose(): void }) {
  const { t } = useLingui();
  return (
    <section className="customer-panel" aria-labelledby={`customer-${customer.customerId}`}>
      <h2 id={`customer-${customer.customerId}`} tabIndex={-1} ref={(el) => el?.focus()}>
        {t`Customer ${customer.name} (ID ${customer.customerId})`}
      </h2>
      <Button variant="secondary" onClick={onClose}>
        {t`Close the customer`}
      </Button>
      <CustomerDocuments customerId={customer.customerId} customerType={customer.customerType} />
      {customer.customerType === 'business' ? <CompanyRepresentatives companyId={customer.customerId} /> : null}
      <LimitForm customer={customer} />
      <FinancialInfoForm customerId={customer.customerId} />
      <DueDiligenceForm customerId={customer.customerId} />
    </section>
  );
}

/** A form's call: busy, its outcome shown, the reads it changes invalidated. */
function useAdminChange<A>(run: (args: A) => Promise<CallOutcome>) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      setOutcome(result);
      if (result.ok) {
        void queryClient.invalidateQueries({ queryKey: adminReviewKey });
        void queryClient.invalidateQueries({ queryKey: ['adminCustomerList'] });
      }
    },
  });
  return { run: (args: A) => mutation.mutate(args), busy: mutation.isPending, outcome };
}

function Outcome({ outcome, done }: { outcome: CallOutcome | null; done: string }) {
  const { t } = useLingui();
  if (!outcome) return null;
  if (outcome.ok) return <Alert tone="success" title={done} />;
  return (
    <Alert tone="error" title={t`Not saved`}>
      {outcome.text.split('\n').map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </Alert>
  );
}

function Form({ title, onSubmit, children }: { title: string; onSubmit(): void; children: ReactNode }) {
  const id = title.replace(/\W+/g, '-').toLowerCase();
  return (
    <form
      noValidate
      aria-labelledby={id}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h3 id={id}>{title}</h3>
      {children}
    </form>
  );
}

/**
 * The customer's documents with their status in words (document 1 §3), newest first, and the
 * derived identity and proof-of-residence states the platform's verification reads (the same rule,
 * api/verification.ts documentState). Deleted documents stay listed (the administrator sees what
 * the customer removed) without the move and remove actions.
 */
function CustomerDocuments({ customerId, customerType }: { customerId: number; customerType: AdminCustomer['customerType'] }) {
  const { t } = useLingui();
  const lang = getUiLanguage();
  const query = useQuery(customerDocumentsQuery(customerId));
  const [target, setTarget] = useState<Record<number, string>>({});
  const reassign = useAdminChange(({ documentId, to }: { documentId: number; to: number }) => reassignDocument(documentId, to));
  const remove = useAdminChange((documentId: number) => removeDocument(documentId));
  const statusName = useDocumentStatusNames();
  const categoryName = useDocumentCategoryNames();
  const stateNames = useDocumentStateNames();
  if (query.isPending) return <Spinner label={t`Loading the documents`} />;
  if (query.isError)
    return (
      <Alert tone="error" title={t`The documents could not be loaded`}>
        <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
      </Alert>
    );
  const main = query.data.documents.filter((d) => !d.isSubDocument).sort((a, b) => (a.uploaded < b.uploaded ? 1 : a.uploaded > b.uploaded ? -1 : b.id - a.id));
  const today = new Date().toISOString().slice(0, 10);
  const residenceCategory = customerType === 'business' ? DocumentCategory.businessAddress : DocumentCategory.address;
  const stateOf = (categoryId: number) => stateNames[documentState(main.filter((d) => d.categoryId === categoryId), today)];
  return (
    <div>
      <h3>{t`Documents`}</h3>
      <dl className="facts">
        <dt>{t`Identity`}</dt>
        <dd>{stateOf(DocumentCategory.identity)}</dd>
        <dt>{t`Proof of residence`}</dt>
        <dd>{stateOf(residenceCategory)}</dd>
      </dl>
      <Outcome outcome={reassign.outcome} done={t`The document was moved.`} />
      <Outcome outcome={remove.outcome} done={t`The document was removed.`} />
      {main.length === 0 ? (
        <p>{t`No documents.`}</p>
      ) : (
        <ul className="admin-documents">
          {main.map((d) => (
            <li key={d.id}>
              <p>
                <strong>{d.documentType}</strong> ({categoryName(d.categoryId)}) · {t`uploaded ${formatDate(d.uploaded, lang)}`} ·{' '}
                <span className="document-status">{statusName(d.statusId)}</span>
                {d.expiresDate ? <> · {t`expires ${formatDate(d.expiresDate, lang)}`}</> : null}
              </p>
              {d.rejectReason ? <p>{t`Reason given to the customer: ${d.rejectReason}`}</p> : null}
              {d.statusId === DocumentStatus.deleted ? null : (
                <form
                  noValidate
                  className="inline-form"
                  onSubmit={(e) => {
                    e.preventDefault();
                    const to = Number(target[d.id] ?? '');
                    if (Number.isInteger(to) && to > 0) reassign.run({ documentId: d.id, to });
                  }}
                >
                  <TextField
                    label={t`Move ${d.documentType} to customer ID`}
                    name={`reassign-${d.id}`}
                    inputMode="numeric"
                    value={target[d.id] ?? ''}
                    onChange={(value) => setTarget((prev) => ({ ...prev, [d.id]: value }))}
                  />
                  <Button type="submit" variant="secondary" busy={reassign.busy}>
                    {t`Move`}
                  </Button>
                  <Button variant="secondary" busy={remove.busy} onClick={() => remove.run(d.id)} aria-label={t`Remove ${d.documentType}`}>
                    {t`Remove`}
                  </Button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A company's representatives with their removal (document 3 §6: an administrator's removal can
 * be forced). Without force the platform keeps what the company needs (its only director, a
 * corporate shareholder with people of its own: VF, shown on the form); with force, ticked on
 * purpose, it removes the representative with what belongs to it.
 */
function CompanyRepresentatives({ companyId }: { companyId: number }) {
  const { t } = useLingui();
  const query = useQuery(companyRepresentativesQuery(companyId));
  const [force, setForce] = useState(false);
  const remove = useAdminChange(({ id }: { id: number }) => removeRepresentative(companyId, id, force));
  const kindNames = { director: t`Director`, shareholder: t`Shareholder`, owner: t`Owner`, authorisedUser: t`Authorised user` };
  if (query.isPending) return <Spinner label={t`Loading the representatives`} />;
  if (query.isError)
    return (
      <Alert tone="error" title={t`The representatives could not be loaded`}>
        <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
      </Alert>
    );
  return (
    <div>
      <h3>{t`Representatives`}</h3>
      <Outcome outcome={remove.outcome} done={t`The representative was removed.`} />
      <CheckboxField
        label={t`Force the removal: also a representative the company needs, with what belongs to it`}
        name="forceRemoval"
        checked={force}
        onChange={setForce}
      />
      {query.data.length === 0 ? (
        <p>{t`No representatives.`}</p>
      ) : (
        <ul className="action-list">
          {query.data.map((r) => {
            const name = representativeName(r);
            return (
              <li key={r.id}>
                <p>
                  <strong>{name}</strong> · {representativeKinds(r.positionIds).map((k) => kindNames[k]).join(', ')}
                </p>
                <Button variant="secondary" busy={remove.busy} onClick={() => remove.run({ id: r.id })} aria-label={t`Remove ${name}`}>
                  {t`Remove`}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function LimitForm({ customer }: { customer: AdminCustomer }) {
  const { t } = useLingui();
  const [reason, setReason] = useState<LimitReason | ''>('');
  const [note, setNote] = useState('');
  const [typeIds, setTypeIds] = useState<number[]>([]);
  const types = useQuery({ queryKey: ['dictionaryDocumentTypes', getUiLanguage()], queryFn: () => callMethodOrThrow('dictionaryDocumentTypes', {}), staleTime: 60 * 60 * 1000 });
  const limit = useAdminChange(() => limitCustomer(customer.customerId, reason as LimitReason, note.trim(), typeIds));
  const unlimit = useAdminChange(() => unlimitCustomer(customer.customerId, note.trim()));
  const reasonNames: Record<LimitReason, string> = {
    expiredDocuments: t`Expired documents`,
    unpaidInvoice: t`Unpaid invoice`,
    sanctions: t`Sanctions screening`,
    adverseMedia: t`Adverse media screening`,
    accountInvestigation: t`Account review`,
  };
  const [reasonMissing, setReasonMissing] = useState(false);
  return (
    <Form
      title={customer.limited ? t`Account limited` : t`Limit the account`}
      onSubmit={() => {
        if (reason === '') setReasonMissing(true);
        else limit.run(undefined);
      }}
    >
      <Outcome outcome={limit.outcome} done={t`The account is limited.`} />
      <Outcome outcome={unlimit.outcome} done={t`The limit is lifted.`} />
      <SelectField
        label={t`Reason`}
        name="limitReason"
        value={reason}
        onChange={(value) => {
          setReason(value as LimitReason);
          setReasonMissing(false);
        }}
        placeholder={t`Choose a reason`}
        options={LIMIT_REASONS.map((r) => ({ value: r, label: reasonNames[r] }))}
        error={reasonMissing ? t`Choose a reason.` : undefined}
      />
      <TextField label={t`Note (kept in the audit log)`} name="limitNote" value={note} onChange={setNote} maxLength={500} />
      {types.data ? (
        <fieldset>
          <legend>{t`Documents that lift the limit`}</legend>
          {types.data.customerDocumentCategories.flatMap((category) =>
            category.customerDocumentTypes.map((type) => (
              <label key={`${category.id}-${type.id}`} className="choice">
                <input
                  type="checkbox"
                  checked={typeIds.includes(type.id)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setTypeIds((prev) => (on ? [...new Set([...prev, type.id])] : prev.filter((x) => x !== type.id)));
                  }}
                />{' '}
                {category.name}: {type.name}
              </label>
            )),
          )}
        </fieldset>
      ) : null}
      <div className="actions">
        <Button type="submit" busy={limit.busy}>
          {t`Limit the account`}
        </Button>
        <Button variant="secondary" busy={unlimit.busy} onClick={() => unlimit.run(undefined)}>
          {t`Lift the limit`}
        </Button>
      </div>
    </Form>
  );
}

function FinancialInfoForm({ customerId }: { customerId: number }) {
  const { t } = useLingui();
  const [info, setInfo] = useState({ annualIncome: '', netWorth: '', sourceOfWealth: '', employerName: '' });
  const save = useAdminChange(() => updateFinancialInfo(customerId, info));
  const set = (key: keyof typeof info) => (value: string) => setInfo((prev) => ({ ...prev, [key]: value }));
  return (
    <Form title={t`Financial info`} onSubmit={() => save.run(undefined)}>
      <Outcome outcome={save.outcome} done={t`The financial info is saved.`} />
      <TextField label={t`Annual income`} name="annualIncome" inputMode="decimal" value={info.annualIncome} onChange={set('annualIncome')} />
      <TextField label={t`Net worth`} name="netWorth" inputMode="decimal" value={info.netWorth} onChange={set('netWorth')} />
      <TextField label={t`Source of wealth`} name="sourceOfWealth" value={info.sourceOfWealth} onChange={set('sourceOfWealth')} maxLength={200} />
      <TextField label={t`Employer`} name="employerName" value={info.employerName} onChange={set('employerName')} maxLength={200} />
      <div className="actions">
        <Button type="submit" busy={save.busy}>
          {t`Save the financial info`}
        </Button>
      </div>
    </Form>
  );
}

function DueDiligenceForm({ customerId }: { customerId: number }) {
  const { t } = useLingui();
  const [level, setLevel] = useState('0');
  const [addressRequired, setAddressRequired] = useState(false);
  const save = useAdminChange(() => updateDueDiligence(customerId, Number(level), addressRequired));
  return (
    <Form title={t`Due diligence`} onSubmit={() => save.run(undefined)}>
      <Outcome outcome={save.outcome} done={t`The due diligence is saved.`} />
      <SelectField label={t`Due-diligence level`} name="dueDiligenceLevel" value={level} onChange={setLevel} options={[0, 1, 2, 3, 4].map((n) => ({ value: String(n), label: String(n) }))} />
      <label className="choice">
        <input type="checkbox" checked={addressRequired} onChange={(e) => setAddressRequired(e.currentTarget.checked)} /> {t`Proof of address required`}
      </label>
      <div className="actions">
        <Button type="submit" busy={save.busy}>
          {t`Save the due diligence`}
        </Button>
      </div>
    </Form>
  );
}
