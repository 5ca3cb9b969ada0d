/**
 * /company and /company/{path} (document 3 §2 "company pages", §3 Company info and Representative
 * kinds, §5 Action-required counting; issue 17 item 4): the company's documents (the default
 * section), information, addresses, representatives (with their identity verification and
 * addresses), shareholders (the ownership tree as a nested list: each share of its parent, each
 * person's effective share, ultimate beneficial owners marked), directors, owners and users; and
 * /company-emails. Above every section, the company's action-required count (companyActionRequiredCount
 * of api/business.ts over the platform's answer) says what the company still has to provide.
 * Thin views over the queries of queries.ts.
 */
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { companyActionItems, distinctRepresentatives, representativeKinds, representativeName, type CompanyActionItem, type CompanyInfo, type CompanyRequiredDetail, type Representative, type RepresentativeKind, type ShareholderNode } from '../../../api/business.ts';
import type { Address } from '../../../api/profile.ts';
import { countryName, formatDate } from '../../lib/format.ts';
import { getUiLanguage, getUiLanguageTag } from '../../lib/i18n.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { useDocumentStatusTexts } from '../verification/status-messages.ts';
import { companyInfoQuery, companyTaxStateQuery, directorsQuery, ownersQuery, shareholdersQuery, usersQuery } from './queries.ts';
import { rightNames } from './rights.ts';
import './company.css';

export const COMPANY_SECTIONS = ['documents', 'information', 'addresses', 'representatives', 'shareholders', 'directors', 'owners', 'users'] as const;
export type CompanySection = (typeof COMPANY_SECTIONS)[number];
export const isCompanySection = (path: string): path is CompanySection => (COMPANY_SECTIONS as readonly string[]).includes(path);

function useSectionNames(): Record<CompanySection, string> {
  const { t } = useLingui();
  return {
    documents: t`Documents`,
    information: t`Information`,
    addresses: t`Addresses`,
    representatives: t`Representatives`,
    shareholders: t`Shareholders`,
    directors: t`Directors`,
    owners: t`Owners`,
    users: t`Users`,
  };
}

const percent = (value: number) => new Intl.NumberFormat(getUiLanguageTag(), { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
const nameOf = representativeName;

/** The sections' navigation (links: each section is its own address). */
function SectionNav({ current }: { current: CompanySection | 'emails' }) {
  const { t } = useLingui();
  const names = useSectionNames();
  return (
    <nav aria-label={t`Company sections`} className="pill-nav">
      <ul>
        {COMPANY_SECTIONS.map((section) => (
          <li key={section}>
            <Link to="/company/$path" params={{ path: section }} className="pill-link" aria-current={current === section ? 'page' : undefined}>
              {names[section]}
            </Link>
          </li>
        ))}
        <li>
          <Link to="/company-emails" className="pill-link" aria-current={current === 'emails' ? 'page' : undefined}>
            {t`E-mails`}
          </Link>
        </li>
      </ul>
    </nav>
  );
}

function useDetailNames(): Record<CompanyRequiredDetail, string> {
  const { t } = useLingui();
  return {
    name: t`Name`,
    registrationCountryCode: t`Country of registration`,
    tradingName: t`Trading name`,
    email: t`E-mail`,
    registrationNumber: t`Registration number`,
    registrationDate: t`Registration date`,
    businessTaxId: t`Tax number`,
    phone: t`Phone`,
    website: t`Website`,
  };
}

/** One action item as a sentence with the link to where it is done. */
function ActionItem({ item, info }: { item: CompanyActionItem; info: CompanyInfo }) {
  const { t } = useLingui();
  const details = useDetailNames();
  const statusText = useDocumentStatusTexts();
  switch (item.kind) {
    case 'detail': {
      const name = details[item.detail];
      return <Link to="/company/$path" params={{ path: 'information' }}>{t`Missing: ${name}`}</Link>;
    }
    case 'document': {
      const doc = info.corporateDocuments.find((d) => d.id === item.documentId);
      const name = doc?.documentType ?? t`A document`;
      const status = statusText(item.statusId);
      return (
        <Link to="/company-documents">
          {name} · {status}
        </Link>
      );
    }
    case 'address':
      return (
        <Link to="/company/$path" params={{ path: 'addresses' }}>
          {item.hasDocument ? t`An address of the company needs attention` : t`An address of the company needs a proof document`}
        </Link>
      );
    case 'missingDocument': {
      const name = item.name;
      return <Link to="/company-documents">{t`To upload: ${name}`}</Link>;
    }
  }
}

const itemKey = (item: CompanyActionItem) =>
  item.kind === 'detail' ? item.detail : item.kind === 'document' ? `d${item.documentId}` : item.kind === 'address' ? `a${item.addressId}` : `c${item.categoryId}`;

/**
 * Document 3 §5 "Action-required counting" for the company (api/business.ts companyActionItems), as a
 * banner: over the company's pages each item with the link to where it is done; elsewhere in the app
 * (`compact`) the count with one link to the company's pages.
 */
export function CompanyActionBanner({ info, acting, compact = false }: { info: CompanyInfo; acting: number | null; compact?: boolean }) {
  const { t } = useLingui();
  const items = companyActionItems(info);
  // Beside §5's count (the platform's actionRequiredCount): the company's tax self-certification
  // while it is neither validated nor pending (issue 18), the same test as the start page's.
  const taxState = useQuery(companyTaxStateQuery(acting)).data;
  const taxDue = taxState === 'none' || taxState === 'rejected';
  const count = items.length + (taxDue ? 1 : 0);
  if (count === 0) return null;
  const title = count === 1 ? t`1 item of the company needs your attention` : t`${count} items of the company need your attention`;
  return (
    <Alert tone="warning" title={title}>
      {compact ? (
        <p className="company-action-lead">
          {t`Some of the company's details or documents are missing or need replacing.`} <Link to="/company">{t`See what is needed`}</Link>
        </p>
      ) : (
        <ul className="company-action-items">
          {taxDue ? (
            <li>
              <Link to="/self-certification-business">{taxState === 'rejected' ? t`Sign the company's tax forms again` : t`Certify the company's tax status`}</Link>
            </li>
          ) : null}
          {items.map((item) => (
            <li key={itemKey(item)}>
              <ActionItem item={item} info={info} />
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

/** The company's banner anywhere in the app (the main layout mounts it for a session acting for a company, outside the company's pages). */
export function CompanyActionNotice({ actingCustomerId }: { actingCustomerId: number | null }) {
  const info = useQuery(companyInfoQuery(actingCustomerId));
  return info.data?.company ? <CompanyActionBanner info={info.data.company} acting={actingCustomerId} compact /> : null;
}

function CompanyFrame({ acting, current, children }: { acting: number | null; current: CompanySection | 'emails'; children: (info: CompanyInfo) => ReactNode }) {
  const { t } = useLingui();
  const names = useSectionNames();
  const info = useQuery(companyInfoQuery(acting));
  const company = info.data?.company;
  return (
    <div className="company-page">
      <p className="company-name">{company?.name ?? t`Your company`}</p>
      <StepHeading>{current === 'emails' ? t`Company e-mails` : names[current]}</StepHeading>
      <SectionNav current={current} />
      {info.isPending ? (
        <Skeleton lines={4} label={t`Loading the company`} />
      ) : info.isError || !company ? (
        <Alert tone="error">{t`The company's details could not be loaded.`}</Alert>
      ) : (
        <>
          <CompanyActionBanner info={company} acting={acting} />
          {children(company)}
        </>
      )}
    </div>
  );
}

export function CompanyPage({ actingCustomerId, section }: { actingCustomerId: number | null; section: CompanySection }) {
  return (
    <CompanyFrame acting={actingCustomerId} current={section}>
      {(info) => {
        switch (section) {
          case 'documents':
            return <DocumentsSection info={info} />;
          case 'information':
            return <InformationSection info={info} />;
          case 'addresses':
            return <AddressesSection info={info} />;
          case 'representatives':
            return <RepresentativesSection acting={actingCustomerId} />;
          case 'shareholders':
            return <ShareholdersSection acting={actingCustomerId} />;
          case 'directors':
            return <PeopleSection acting={actingCustomerId} kind="directors" />;
          case 'owners':
            return <PeopleSection acting={actingCustomerId} kind="owners" />;
          case 'users':
            return <PeopleSection acting={actingCustomerId} kind="users" />;
        }
      }}
    </CompanyFrame>
  );
}

export function CompanyEmailsPage({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const users = useQuery(usersQuery(actingCustomerId));
  return (
    <CompanyFrame acting={actingCustomerId} current="emails">
      {(info) => (
        <>
          <Card as="section" title={t`The company's e-mail`}>
            {info.email ? <p className="company-email">{info.email}</p> : <p>{t`No e-mail address is on file for the company.`}</p>}
          </Card>
          <Card as="section" title={t`Users' e-mails`}>
            {users.isPending ? (
              <Skeleton lines={2} label={t`Loading the users`} />
            ) : (
              <ul className="action-list">
                {(users.data?.representatives ?? []).map((u) => (
                  <PersonRow key={u.id} name={nameOf(u)} email={u.email ?? t`no e-mail`} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </CompanyFrame>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  const { t } = useLingui();
  return (
    <dl className="company-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? <Badge tone="warning">{t`Missing`}</Badge> : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function DocumentsSection({ info }: { info: CompanyInfo }) {
  const { t } = useLingui();
  const statusText = useDocumentStatusTexts();
  const docs = [...info.corporateDocuments, ...info.sourceOfWealthDocuments, ...info.additionalDocuments].filter((d) => !d.isSubDocument);
  return (
    <Card as="section" title={t`The company's documents`} action={<Link to="/company-documents">{t`Upload documents`}</Link>}>
      {docs.length === 0 ? (
        <EmptyState headingLevel={3} title={t`No documents yet`} text={t`Upload the company's registration documents so that it can be verified.`} />
      ) : (
        <ul className="company-list">
          {docs.map((d) => {
            const ok = d.statusId === 1 || d.statusId === 2;
            return (
              <li key={d.id}>
                <span>{d.documentType}</span> <span className="row-note">{formatDate(d.uploaded, getUiLanguage())}</span>{' '}
                <Badge tone={ok ? 'success' : d.statusId === 26 || d.statusId === 64 ? 'danger' : 'neutral'}>{statusText(d.statusId)}</Badge>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function InformationSection({ info }: { info: CompanyInfo }) {
  const { t } = useLingui();
  const names = useDetailNames();
  return (
    <Card as="section" title={t`Company information`}>
      <Facts
        rows={[
          [names.name, info.name],
          [names.tradingName, info.tradingName],
          [names.registrationCountryCode, countryName(info.registrationCountryCode, getUiLanguageTag())],
          [names.registrationNumber, info.registrationNumber],
          [names.registrationDate, info.registrationDate ? formatDate(info.registrationDate, getUiLanguage()) : null],
          [names.businessTaxId, info.businessTaxId],
          [names.email, info.email],
          [names.phone, info.phone ? `+${info.phone.countryCode} ${info.phone.number}` : null],
          [names.website, info.website],
          [t`Verified`, info.verified ? t`Yes` : t`Not yet`],
        ]}
      />
    </Card>
  );
}

function AddressLines({ address }: { address: Address }) {
  return (
    <>
      {address.address1}
      {address.address2 ? `, ${address.address2}` : ''}, {address.postalCode} {address.city}, {countryName(address.countryCode, getUiLanguageTag()) ?? address.countryCode}
    </>
  );
}

function AddressesSection({ info }: { info: CompanyInfo }) {
  const { t } = useLingui();
  return (
    <Card as="section" title={t`Company addresses`}>
      {info.addresses.length === 0 ? (
        <EmptyState headingLevel={3} title={t`No address yet`} text={t`The company's registered address and its place of business appear here with the state of their proof documents.`} />
      ) : (
        <ul className="company-list">
          {info.addresses.map((a) => {
            const needsAction = a.uploadedDocuments.length === 0 || (a.statusId !== 0 && a.statusId !== 2);
            return (
              <li key={a.addressId}>
                <AddressLines address={a} />{' '}
                {needsAction ? (
                  <Badge tone="warning">{a.uploadedDocuments.length === 0 ? t`Document needed` : t`Needs attention`}</Badge>
                ) : (
                  <Badge tone="success">{t`In order`}</Badge>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function useKindNames(): Record<RepresentativeKind, string> {
  const { t } = useLingui();
  return { director: t`Director`, shareholder: t`Shareholder`, owner: t`Owner`, authorisedUser: t`Authorised user` };
}

function useIdentityTexts(): Record<Representative['identityVerificationStatus'], string> {
  const { t } = useLingui();
  return { none: t`Identity not verified yet`, pending: t`Identity being verified`, validated: t`Identity verified`, rejected: t`Identity verification rejected` };
}

const identityTone = (r: Pick<Representative, 'identityVerificationStatus'>) =>
  r.identityVerificationStatus === 'validated' ? 'success' : r.identityVerificationStatus === 'rejected' ? 'danger' : 'neutral';

function RepresentativeCard({ r }: { r: Representative }) {
  const { t } = useLingui();
  const kinds = useKindNames();
  const identity = useIdentityTexts();
  return (
    <Card as="article" headingLevel={3} title={nameOf(r)} className="company-representative">
      <p className="company-badges">
        {representativeKinds(r.positionIds).map((k) => (
          <Badge key={k}>{kinds[k]}</Badge>
        ))}
        {r.type === 'person' ? <Badge tone={identityTone(r)}>{identity[r.identityVerificationStatus]}</Badge> : null}
        {r.actionRequired ? <Badge tone="warning">{t`Action required`}</Badge> : null}
      </p>
      {r.addresses.length > 0 ? (
        <ul className="company-list">
          {r.addresses.map((a) => (
            <li key={a.addressId}>
              <AddressLines address={a} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="row-note">{t`No address on file.`}</p>
      )}
    </Card>
  );
}

function RepresentativesSection({ acting }: { acting: number | null }) {
  const { t } = useLingui();
  const lists = [useQuery(directorsQuery(acting)), useQuery(ownersQuery(acting)), useQuery(usersQuery(acting))];
  const tree = useQuery(shareholdersQuery(acting));
  if (tree.isPending || lists.some((q) => q.isPending)) return <Skeleton lines={4} label={t`Loading the representatives`} />;
  if (tree.isError || lists.some((q) => q.isError)) return <Alert tone="error">{t`The representatives could not be loaded.`}</Alert>;
  const all = distinctRepresentatives(
    lists.map((q) => q.data?.representatives ?? []),
    tree.data?.shareholders ?? [],
  );
  return all.length === 0 ? (
    <EmptyState title={t`No representatives yet`} />
  ) : (
    <div className="company-representatives card-grid">
      {all.map((r) => (
        <RepresentativeCard key={r.id} r={r} />
      ))}
    </div>
  );
}

function ShareholderItem({ node }: { node: ShareholderNode }) {
  const { t } = useLingui();
  const name = nameOf(node);
  const share = node.share === null ? null : percent(node.share);
  const effective = node.effectiveShare === null ? null : percent(node.effectiveShare);
  return (
    <li className="company-tree-node">
      <div className="company-tree-row">
        <span className="company-tree-name">{name}</span>
        <span className="row-note">{node.type === 'company' ? t`Company` : t`Person`}</span>
        {share ? <span>{t`Holds ${share}`}</span> : null}
        {node.type === 'person' && effective ? <span>{t`Effective share ${effective}`}</span> : null}
        {node.isUltimateBeneficialOwner ? <Badge tone="info">{t`Ultimate beneficial owner`}</Badge> : null}
      </div>
      {node.shareholders.length > 0 ? (
        <ul aria-label={t`Shareholders of ${name}`} className="company-tree">
          {node.shareholders.map((child) => (
            <ShareholderItem key={child.id} node={child} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function ShareholdersSection({ acting }: { acting: number | null }) {
  const { t } = useLingui();
  const tree = useQuery(shareholdersQuery(acting));
  if (tree.isPending) return <Skeleton lines={4} label={t`Loading the shareholders`} />;
  if (tree.isError) return <Alert tone="error">{t`The shareholders could not be loaded.`}</Alert>;
  const roots = tree.data.shareholders;
  return (
    <Card as="section" title={t`Who owns the company`}>
      <p className="company-lead">{t`Each share is of the company or shareholder above it. A person's effective share multiplies the shares down the path; 25% or more makes them an ultimate beneficial owner.`}</p>
      {roots.length === 0 ? (
        <EmptyState headingLevel={3} title={t`No shareholders yet`} />
      ) : (
        <ul aria-label={t`Shareholders of the company`} className="company-tree company-tree-root">
          {roots.map((node) => (
            <ShareholderItem key={node.id} node={node} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** A person in a list: the name over the e-mail, then what is said about them. */
function PersonRow({ name, email, children }: { name: string; email: string | null; children?: ReactNode }) {
  return (
    <li>
      <span className="company-person-who">
        <span className="company-tree-name">{name}</span>
        {email ? <span className="company-email row-note">{email}</span> : null}
      </span>
      {children ? <span className="company-badges">{children}</span> : null}
    </li>
  );
}

function PeopleSection({ acting, kind }: { acting: number | null; kind: 'directors' | 'owners' | 'users' }) {
  const { t, i18n } = useLingui();
  const query = useQuery(kind === 'directors' ? directorsQuery(acting) : kind === 'owners' ? ownersQuery(acting) : usersQuery(acting));
  const identity = useIdentityTexts();
  const title = kind === 'directors' ? t`The company's directors` : kind === 'owners' ? t`Ultimate beneficial owners` : t`Users of the company`;
  if (query.isPending) return <Skeleton lines={3} label={t`Loading`} />;
  if (query.isError) return <Alert tone="error">{t`The list could not be loaded.`}</Alert>;
  const people = query.data.representatives;
  return (
    <Card as="section" title={title}>
      {people.length === 0 ? (
        <EmptyState headingLevel={3} title={kind === 'directors' ? t`No directors yet` : kind === 'owners' ? t`No owners yet` : t`No users yet`} />
      ) : (
        <ul className="action-list">
          {people.map((r) => {
            const effective = r.effectiveShare === null ? null : percent(r.effectiveShare);
            return (
              <PersonRow key={r.id} name={nameOf(r)} email={r.email}>
                {kind === 'users' && r.accessRights !== null ? <Badge>{i18n._(rightNames[r.accessRights])}</Badge> : null}
                {kind === 'owners' && effective ? <Badge tone="info">{t`Effective share ${effective}`}</Badge> : null}
                {r.type === 'person' ? <Badge tone={identityTone(r)}>{identity[r.identityVerificationStatus]}</Badge> : null}
                {r.actionRequired ? <Badge tone="warning">{t`Action required`}</Badge> : null}
              </PersonRow>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
