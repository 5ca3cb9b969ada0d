/**
 * /revenue-split (document 3 §2, §3 Contracts meta, §7 GET /contract; issue 19 item 1): the acting
 * customer's contracts with the meta counts as filter chips (the requests, contracts waiting for
 * this customer's signature, stand out), filters by company and counterparty name, the order, and
 * pages of 100. A read only (queries.ts); each row opens the contract's page.
 *
 * The platform filters by status; "requests", "pending", "pay" and "receive" are narrower than
 * their statuses, so those chips also keep, of the page's rows, the ones the shared rule
 * (api/contracts.ts contractCountsAs) counts there.
 */
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plural, useLingui } from '@lingui/react/macro';
import {
  BEFORE_FORCE_STATUSES,
  CONTRACT_PAGE_SIZE_DEFAULT,
  ENDED_STATUSES,
  IN_FORCE_STATUSES,
  contractCountsAs,
  type Contract,
  type ContractsMeta,
} from '../../../api/contracts.ts';
import { factsOf } from '../../../machines/contract/contract.rules.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { PlusIcon, ReceiptIcon } from '../../ui/icons.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { contractListQuery, type ContractListParams, type ContractOrderBy } from './queries.ts';
import { ContractReadError, type ContractAccess } from './rest.ts';
import { failureText, statusNames, statusTones } from './words.ts';
import { counterpartyOf, formatDay, formatPercentage } from './format.ts';
import './contracts.css';

export type ContractFilter = 'all' | 'requests' | 'pending' | 'active' | 'ended' | 'pay' | 'receive';

const FILTER_STATUSES: Record<ContractFilter, string | undefined> = {
  all: undefined,
  requests: 'UNSIGNED,WAITING',
  pending: BEFORE_FORCE_STATUSES.join(','),
  active: IN_FORCE_STATUSES.join(','),
  ended: ENDED_STATUSES.join(','),
  pay: IN_FORCE_STATUSES.join(','),
  receive: IN_FORCE_STATUSES.join(','),
};

function keeps(filter: ContractFilter, c: Contract, customerId: number): boolean {
  const counts = contractCountsAs(factsOf(c), customerId);
  if (filter === 'requests') return counts.requests;
  if (filter === 'pending') return counts.pending;
  if (filter === 'pay') return counts.pay;
  if (filter === 'receive') return counts.receive;
  return true;
}

export interface ContractsListProps {
  access: ContractAccess;
  /** the customer acted for: which side of each contract is "mine" */
  customerId: number;
  /** full rights: may create (the platform answers 403 otherwise) */
  mayCreate: boolean;
  onOpen(id: number): void;
  onNew(): void;
}

export function ContractsListView({ access, customerId, mayCreate, onOpen, onNew }: ContractsListProps) {
  const { t, i18n } = useLingui();
  const [filter, setFilter] = useState<ContractFilter>('all');
  const [names, setNames] = useState({ companyName: '', counterpartyName: '' });
  const [typed, setTyped] = useState(names);
  const [orderBy, setOrderBy] = useState<ContractOrderBy>('CREATED_AT');
  const [orderDir, setOrderDir] = useState<'ASC' | 'DESC'>('DESC');
  const [page, setPage] = useState(1);
  const params: ContractListParams = { statuses: FILTER_STATUSES[filter], ...names, orderBy, orderDir, page };
  const query = useQuery({ ...contractListQuery(access, params), placeholderData: (previous) => previous });
  const data = query.data;
  const meta: ContractsMeta | null = data?.meta ?? null;
  const rows = (data?.contracts ?? []).filter((c) => keeps(filter, c, customerId));
  const pages = data ? Math.max(1, Math.ceil(data.count / CONTRACT_PAGE_SIZE_DEFAULT)) : 1;

  const chips: { id: ContractFilter; label: string; count: number | undefined }[] = [
    { id: 'all', label: t`All`, count: meta?.total },
    { id: 'requests', label: t`To sign`, count: meta?.requests },
    { id: 'pending', label: t`Pending`, count: meta?.pending },
    { id: 'active', label: t`Active`, count: meta?.active },
    { id: 'pay', label: t`I pay`, count: meta?.pay },
    { id: 'receive', label: t`I receive`, count: meta?.receive },
    { id: 'ended', label: t`Ended`, count: meta?.ended },
  ];
  const choose = (next: ContractFilter) => {
    setFilter(next);
    setPage(1);
  };
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setNames(typed);
    setPage(1);
  };

  const columns: DataTableColumn<Contract>[] = [
    // The row's button (the first column) holds the counterparty's name only, so its name
    // (rowLabel, "Contract with ...") contains all it shows (WCAG 2.5.3, label in name: axe's
    // label-content-name-mismatch); the company the contract was made for has a column of its own.
    { header: t`Counterparty`, render: (c) => <span className="contract-party">{counterpartyOf(c).name}</span> },
    { header: t`Company`, render: (c) => c.company.title },
    { header: t`Direction`, render: (c) => (c.direction === 'PAY' ? t`I pay` : t`I receive`) },
    { header: t`Share`, align: 'end', render: (c) => <span className="amount">{formatPercentage(c.percentage)}</span> },
    {
      header: t`Status`,
      render: (c) => (
        <span className="contract-badges">
          <Badge tone={statusTones[c.status]}>{i18n._(statusNames[c.status])}</Badge>
          {contractCountsAs(factsOf(c), customerId).requests ? <Badge tone="warning">{t`Your signature is needed`}</Badge> : null}
        </span>
      ),
    },
    { header: t`Active from`, render: (c) => formatDay(c.activeFrom) },
  ];
  const failure = query.error instanceof ContractReadError ? query.error.failure : query.error ? { code: 'network' as const, message: null } : null;
  const requests = meta?.requests ?? 0;

  return (
    <div className="contracts-page">
      <div className="contracts-header">
        <h1>{t`Revenue split`}</h1>
        {mayCreate ? (
          <Button onClick={onNew}>
            <PlusIcon />
            {t`New contract`}
          </Button>
        ) : null}
      </div>
      <p className="contracts-lead">{t`Contracts that move a share of incoming payments from one customer to another.`}</p>
      {requests > 0 ? (
        <Alert tone="warning" title={t`Contracts wait for your signature`}>
          <Button variant="link" onClick={() => choose('requests')}>
            <Plural value={requests} one="Show the # contract to sign" other="Show the # contracts to sign" />
          </Button>
        </Alert>
      ) : null}
      <div className="contract-chips" role="group" aria-label={t`Show contracts`}>
        {chips.map((chip) => (
          <button
            key={chip.id}
            type="button"
            className={['contract-chip', chip.id === 'requests' && (chip.count ?? 0) > 0 ? 'is-urgent' : ''].filter(Boolean).join(' ')}
            aria-pressed={filter === chip.id}
            onClick={() => choose(chip.id)}
          >
            <span>{chip.label}</span>
            <span className="contract-chip-count">{chip.count ?? '–'}</span>
          </button>
        ))}
      </div>
      <form className="contract-filters" onSubmit={apply} aria-label={t`Search contracts`}>
        <TextField label={t`Company name`} name="companyName" value={typed.companyName} maxLength={256} onChange={(companyName) => setTyped({ ...typed, companyName })} />
        <TextField
          label={t`Counterparty name`}
          name="counterpartyName"
          value={typed.counterpartyName}
          maxLength={256}
          onChange={(counterpartyName) => setTyped({ ...typed, counterpartyName })}
        />
        <SelectField
          label={t`Order by`}
          name="orderBy"
          value={orderBy}
          onChange={(value) => {
            setOrderBy(value as ContractOrderBy);
            setPage(1);
          }}
          options={[
            { value: 'CREATED_AT', label: t`Date created` },
            { value: 'COMPANY_NAME', label: t`Company name` },
            { value: 'INCOMING_FIRST', label: t`Incoming first` },
          ]}
        />
        <SelectField
          label={t`Order`}
          name="orderDir"
          value={orderDir}
          onChange={(value) => {
            setOrderDir(value as 'ASC' | 'DESC');
            setPage(1);
          }}
          options={[
            { value: 'DESC', label: t`Descending` },
            { value: 'ASC', label: t`Ascending` },
          ]}
        />
        <div className="contract-filters-submit">
          <Button type="submit" variant="secondary">{t`Search`}</Button>
        </div>
      </form>
      {failure ? (
        <Alert tone="error" title={t`We could not load your contracts.`}>
          {failureText(failure.code, failure.message)}
        </Alert>
      ) : null}
      <section className="history-section" aria-busy={query.isFetching} aria-label={t`Contracts`}>
        {query.isPending ? (
          <Skeleton lines={4} label={t`Loading contracts`} />
        ) : rows.length === 0 && !failure ? (
          <EmptyState
            icon={ReceiptIcon}
            title={filter === 'all' && !names.companyName && !names.counterpartyName ? t`No contracts yet` : t`No contracts match`}
            text={mayCreate ? t`A revenue-split contract sends a percentage of your incoming payments to another customer, or theirs to you.` : undefined}
            action={mayCreate ? <Button onClick={onNew}>{t`New contract`}</Button> : undefined}
          />
        ) : rows.length > 0 ? (
          <DataTable
            columns={columns}
            rows={rows}
            caption={t`Contracts`}
            hideCaption
            rowKey={(c) => c.id}
            onRowClick={(c) => onOpen(c.id)}
            rowLabel={(c) => {
              const otherName = counterpartyOf(c).name;
              return t`Contract with ${otherName}`;
            }}
            card
          />
        ) : null}
        {data && pages > 1 ? (
          <nav className="pager" aria-label={t`Pages`}>
            <Button variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t`Previous`}</Button>
            <span>{t`Page ${page} of ${pages}`}</span>
            <Button variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t`Next`}</Button>
          </nav>
        ) : null}
      </section>
    </div>
  );
}
