/**
 * Business registration (/register/business): the wizard's sections, its hubs (directors, the
 * shareholder tree, owners, users), the review and the success page. Reads the machine through
 * business-registration.select.ts and sends its events; the forms are forms-view.tsx.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { businessRegistrationMachine, type BusinessRegistrationMachine } from '../../../machines/business-registration/business-registration.machine.ts';
import { selectBusinessRegistrationView, type BusinessRegistrationView as View, type PersonRow } from '../../../machines/business-registration/business-registration.select.ts';
import { WIZARD_SECTIONS, type WizardSection } from '../../../machines/business-registration/business-registration.rules.ts';
import type { FlatNode, OwnershipIssue, Section } from '../../../api/ownership.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { countryName } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { businessRegistrationActors } from './actors.ts';
import { CompanyForm, DueDiligenceForm, FinancialForm, GeneralForm, LeaveFormContext, LegalForm, PersonForm, type CountryOption } from './forms-view.tsx';
import { ownershipMessages, rightsNames, sectionNames, submitErrorMessages } from './messages.ts';
import './business-registration.css';

export type BusinessRegistrationActor = ActorRefFrom<BusinessRegistrationMachine>;

export interface BusinessRegistrationPageProps {
  hideAdultIndustries: boolean;
  /** ultimate beneficial owners give their sources of funds (§5 "when source-of-wealth is enabled") */
  sourceOfWealth: boolean;
  countries: readonly CountryOption[];
}

/** Owns the live actor: the page the route renders. */
export function BusinessRegistrationPage({ hideAdultIndustries, sourceOfWealth, countries }: BusinessRegistrationPageProps) {
  const logic = useMemo(() => businessRegistrationMachine.provide({ actors: businessRegistrationActors({ hideAdultIndustries }) }), [hideAdultIndustries]);
  const actor = useFlowActor(logic, { input: { sourceOfWealth } });
  return <BusinessRegistrationView actor={actor} countries={countries} />;
}

export function BusinessRegistrationView({ actor, countries }: { actor: BusinessRegistrationActor; countries: readonly CountryOption[] }) {
  const { t } = useLingui();
  const view = selectBusinessRegistrationView(useSelector(actor, (s) => s));

  switch (view.step) {
    case 'loading':
    case 'clearing':
      return (
        <section className="business-registration" aria-busy="true" aria-labelledby="business-registration-heading">
          <StepHeading id="business-registration-heading">{t`Register a business`}</StepHeading>
          <p role="status">{view.step === 'clearing' ? t`Clearing the draft…` : t`Loading the registration forms…`}</p>
        </section>
      );
    case 'dictionariesFailed':
      return (
        <section className="business-registration" aria-labelledby="business-registration-heading">
          <StepHeading id="business-registration-heading">{t`Register a business`}</StepHeading>
          <Alert tone="error">{t`We could not load the registration forms. Check your connection and try again.`}</Alert>
          <Button onClick={() => actor.send({ type: 'RETRY' })}>{t`Try again`}</Button>
        </section>
      );
    case 'done': {
      const sentTo = view.sentTo ?? '';
      return (
        <section key="done" className="business-registration" aria-labelledby="business-registration-done">
          <StepHeading id="business-registration-done">{t`Check your e-mail`}</StepHeading>
          <p>{t`The company is registered. We sent an activation code to ${sentTo}. Open the link in the e-mail, or enter the code on the activation page.`}</p>
          <p>{t`Once the company is activated, its other users receive their own activation links.`}</p>
          <p>
            <a href={`/activate?email=${encodeURIComponent(sentTo)}`}>{t`Enter the activation code`}</a>
          </p>
        </section>
      );
    }
    default:
      return <Wizard actor={actor} view={view} countries={countries} />;
  }
}

function Wizard({ actor, view, countries }: { actor: BusinessRegistrationActor; view: View; countries: readonly CountryOption[] }) {
  const { t, i18n } = useLingui();
  const section = view.step as WizardSection | 'submitting';
  const current: WizardSection = section === 'submitting' ? 'review' : section;
  const headingId = 'business-registration-section';
  // the shown root form's flush: what was typed is kept when the customer goes elsewhere (forms-view.tsx)
  const leaving = useRef<(() => void) | null>(null);
  const leave = () => leaving.current?.();
  // On a phone the sections scroll sideways: the current one is brought into view.
  const sectionList = useRef<HTMLOListElement>(null);
  useEffect(() => {
    sectionList.current?.querySelector<HTMLElement>('[aria-current="step"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [current]);
  const incomplete = WIZARD_SECTIONS.filter((s) => !view.sectionValid[s as keyof typeof view.sectionValid])
    .map((s) => i18n._(sectionNames[s]))
    .join(', ');
  const draftText =
    view.draftSave === 'saved'
      ? t`Draft saved.`
      : view.draftSave === 'deviceOnly'
        ? t`Draft saved on this device only.`
        : view.draftSave === 'failed'
          ? t`The draft could not be saved.`
          : '';
  return (
    <div className="business-registration">
      <p className="business-registration-eyebrow">{t`Register a business`}</p>
      <nav aria-label={t`Registration sections`}>
        <ol className="wizard-sections" ref={sectionList}>
          {WIZARD_SECTIONS.map((s) => {
            const valid = view.sectionValid[s as keyof typeof view.sectionValid];
            return (
              <li key={s}>
                <button
                  type="button"
                  className="wizard-section-link"
                  aria-current={s === current ? 'step' : undefined}
                  onClick={() => {
                    leave();
                    actor.send({ type: 'GO', section: s });
                  }}
                  disabled={view.busy}
                >
                  {i18n._(sectionNames[s])}
                  <span className={valid ? 'wizard-mark-done' : 'wizard-mark-todo'}>{valid ? ` ${t`(complete)`}` : view.showIssues ? ` ${t`(needs attention)`}` : ''}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <p role="status" className="field-hint wizard-draft-status">
        {draftText}
      </p>
      {view.restored === 'device' ? <Alert tone="info">{t`We restored the draft saved on this device.`}</Alert> : null}
      {view.restored === 'platform' ? <Alert tone="info">{t`We restored the draft you saved earlier.`}</Alert> : null}
      {view.restored === 'discarded' ? <Alert tone="info">{t`A draft from an older version of this form was discarded.`}</Alert> : null}
      {view.showIssues && !view.canReview ? <Alert tone="warning">{t`Some sections need attention before you can send the registration: ${incomplete}.`}</Alert> : null}
      <section key={`${current}-${view.sub ?? ''}`} aria-labelledby={headingId} className="wizard-section" aria-busy={view.busy || undefined}>
        <StepHeading id={headingId}>
          <SectionHeading view={view} />
        </StepHeading>
        <LeaveFormContext.Provider value={leaving}>
          <SectionBody actor={actor} view={view} countries={countries} />
        </LeaveFormContext.Provider>
      </section>
      <ButtonGroup label={t`Registration`}>
        {current !== 'review' ? (
          <Button
            variant="secondary"
            onClick={() => {
              leave();
              actor.send({ type: 'REVIEW' });
            }}
          >
            {t`Review and send`}
          </Button>
        ) : null}
        <Button variant="secondary" onClick={() => actor.send({ type: 'CLEAR' })} disabled={view.busy}>
          {t`Clear the draft`}
        </Button>
      </ButtonGroup>
      <Dialog
        open={view.confirmingClear}
        title={t`Clear the draft?`}
        onClose={() => actor.send({ type: 'CLEAR.CANCEL' })}
        actions={
          <>
            <Button variant="secondary" onClick={() => actor.send({ type: 'CLEAR.CANCEL' })}>
              {t`Keep the draft`}
            </Button>
            <Button variant="danger" onClick={() => actor.send({ type: 'CLEAR.CONFIRM' })}>
              {t`Clear everything`}
            </Button>
          </>
        }
      >
        <p>{t`Everything typed in this registration is deleted, on this device and on our servers. This cannot be undone.`}</p>
      </Dialog>
    </div>
  );
}

function SectionHeading({ view }: { view: View }): string {
  const { t, i18n } = useLingui();
  if (view.sub === 'personForm') return view.personForm?.isNew ? t`Add a person` : t`Edit a person`;
  if (view.sub === 'companyForm') return view.companyForm?.isNew ? t`Add a company shareholder` : t`Edit a company shareholder`;
  const s = view.step === 'submitting' ? 'review' : (view.step as WizardSection);
  return i18n._(sectionNames[s]);
}

function SectionBody({ actor, view, countries }: { actor: BusinessRegistrationActor; view: View; countries: readonly CountryOption[] }) {
  if (view.sub === 'personForm') return <PersonForm actor={actor} view={view} />;
  if (view.sub === 'companyForm') return <CompanyForm actor={actor} view={view} countries={countries} />;
  switch (view.step) {
    case 'generalForm':
      return <GeneralForm actor={actor} view={view} countries={countries} />;
    case 'financialInfoForm':
      return <FinancialForm actor={actor} view={view} />;
    case 'dueDilligenceForm':
      return <DueDiligenceForm actor={actor} view={view} />;
    case 'legalForm':
      return <LegalForm actor={actor} view={view} />;
    case 'directorsHub':
      return <DirectorsHub actor={actor} view={view} />;
    case 'shareholdersHub':
      return <ShareholdersHub actor={actor} view={view} />;
    case 'ownersHub':
      return <OwnersHub actor={actor} view={view} />;
    case 'usersHub':
      return <UsersHub actor={actor} view={view} />;
    default:
      return <Review actor={actor} view={view} />;
  }
}

function Issues({ view, sections }: { view: View; sections: Section[] }) {
  const { t, i18n } = useLingui();
  const codes = [...new Set(view.issues.filter((i: OwnershipIssue) => (sections as string[]).includes(i.section)).map((i) => i.code))];
  if (codes.length === 0) return null;
  return (
    <div className="wizard-issues">
      <p>{t`Still needed here:`}</p>
      <ul>
        {codes.map((code) => (
          <li key={code}>{i18n._(ownershipMessages[code])}</li>
        ))}
      </ul>
    </div>
  );
}

function Continue({ actor, to }: { actor: BusinessRegistrationActor; to: WizardSection }) {
  const { t, i18n } = useLingui();
  const section = i18n._(sectionNames[to]);
  return (
    <ButtonGroup align="end">
      <Button onClick={() => actor.send({ type: 'GO', section: to })}>{t`Continue to ${section}`}</Button>
    </ButtonGroup>
  );
}

function PersonActions({ actor, person, onRemove }: { actor: BusinessRegistrationActor; person: PersonRow; onRemove?: (() => void) | undefined }) {
  const { t } = useLingui();
  const name = person.name || person.email || t`(no name yet)`;
  return (
    <span className="wizard-row-actions">
      <Button size="sm" variant="secondary" aria-label={t`Edit ${name}`} onClick={() => actor.send({ type: 'PERSON.EDIT', personId: person.id })}>
        {t`Edit`}
      </Button>
      {onRemove ? (
        <Button size="sm" variant="danger" aria-label={t`Remove ${name}`} onClick={onRemove}>
          {t`Remove`}
        </Button>
      ) : null}
    </span>
  );
}

function DirectorsHub({ actor, view }: { actor: BusinessRegistrationActor; view: View }) {
  const { t, i18n } = useLingui();
  const [choice, setChoice] = useState('');
  const youAre = (who: string) => t`You (${who})`;
  const others = view.persons.filter((p) => !view.directors.some((d) => d.id === p.id) && (p.name || p.isRegistrant));
  const choose = (e: FormEvent) => {
    e.preventDefault();
    if (choice) actor.send({ type: 'DIRECTOR.CHOOSE', personId: choice });
    setChoice('');
  };
  return (
    <>
      <Issues view={view} sections={['directors']} />
      {view.directors.length === 0 ? (
        <p>{t`No directors yet.`}</p>
      ) : (
        <ul className="wizard-list" aria-label={t`Directors`}>
          {view.directors.map((d) => (
            <li key={d.id} className="wizard-row">
              <span>{d.name}</span>
              <PersonActions actor={actor} person={d} onRemove={() => actor.send({ type: 'DIRECTOR.REMOVE', personId: d.id })} />
            </li>
          ))}
        </ul>
      )}
      <ButtonGroup>
        <Button onClick={() => actor.send({ type: 'PERSON.ADD' })}>{t`Add a director`}</Button>
      </ButtonGroup>
      {others.length > 0 ? (
        <form onSubmit={choose} className="wizard-inline-form">
          <SelectField
            label={t`Or make a person already named a director`}
            name="chooseDirector"
            value={choice}
            onChange={setChoice}
            options={others.map((p) => ({ value: p.id, label: p.isRegistrant ? youAre(p.name || p.email || '…') : p.name }))}
            placeholder={t`Choose a person`}
          />
          <Button type="submit" variant="secondary">
            {t`Make director`}
          </Button>
        </form>
      ) : null}
      <Continue actor={actor} to="shareholdersHub" />
    </>
  );
}

function ShareholdersHub({ actor, view }: { actor: BusinessRegistrationActor; view: View }) {
  const { t, i18n } = useLingui();
  return (
    <>
      <p>{t`Add the company's shareholders. A company shareholder may have shareholders of its own; a person's effective share is the product of the shares down the tree, and 25 percent or more makes them a beneficial owner.`}</p>
      <Issues view={view} sections={['shareholders', 'companies']} />
      {view.tree.length === 0 ? <p>{t`No shareholders yet.`}</p> : <Tree actor={actor} view={view} />}
      <ButtonGroup>
        <Button onClick={() => actor.send({ type: 'SHAREHOLDER.ADD_PERSON', parentPath: [] })}>{t`Add a person shareholder`}</Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'SHAREHOLDER.ADD_COMPANY', parentPath: [] })}>
          {t`Add a company shareholder`}
        </Button>
      </ButtonGroup>
      <Continue actor={actor} to="ownersHub" />
    </>
  );
}

/** The ownership tree as nested lists: each node's share, each person's effective share, owners marked. */
function Tree({ actor, view, readOnly = false }: { actor: BusinessRegistrationActor; view: View; readOnly?: boolean }) {
  const { t } = useLingui();
  const byParent = (parent: number[]) => view.tree.filter((n) => n.path.length === parent.length + 1 && parent.every((x, i) => n.path[i] === x));
  const node = (n: FlatNode) => {
    const name = n.name || t`(unnamed)`;
    const share = n.share;
    const effective = n.personTotalShare ?? n.effectiveShare;
    const children = n.type === 2 ? byParent(n.path) : [];
    return (
      <li key={n.path.join('.')} className="ownership-node">
        <div className="ownership-node-row">
          <span className="ownership-node-name">
            {n.type === 2 ? t`Company: ${name}` : name} <span className="ownership-share">{t`${share} % of its parent`}</span>
            {n.type === 1 ? <span className="ownership-share">{t`effective ${effective} %`}</span> : null}
            {n.isUbo ? <Badge tone="info">{t`Beneficial owner`}</Badge> : null}
          </span>
          {readOnly ? null : (
            <span className="wizard-row-actions">
              <Button size="sm" variant="secondary" aria-label={t`Edit ${name}`} onClick={() => actor.send({ type: 'SHAREHOLDER.EDIT', path: n.path })}>
                {t`Edit`}
              </Button>
              <Button size="sm" variant="danger" aria-label={t`Remove ${name}`} onClick={() => actor.send({ type: 'SHAREHOLDER.REMOVE', path: n.path })}>
                {t`Remove`}
              </Button>
              {n.type === 2 ? (
                <>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t`Add a person shareholder of ${name}`}
                    onClick={() => actor.send({ type: 'SHAREHOLDER.ADD_PERSON', parentPath: n.path })}
                  >
                    {t`Add a person`}
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t`Add a company shareholder of ${name}`}
                    onClick={() => actor.send({ type: 'SHAREHOLDER.ADD_COMPANY', parentPath: n.path })}
                  >
                    {t`Add a company`}
                  </Button>
                </>
              ) : null}
            </span>
          )}
        </div>
        {children.length > 0 ? <ul aria-label={t`Shareholders of ${name}`}>{children.map(node)}</ul> : null}
      </li>
    );
  };
  return (
    <ul className="ownership-tree" aria-label={t`Ownership tree`}>
      {byParent([]).map(node)}
    </ul>
  );
}

function OwnerShare({ effective }: { effective: string }) {
  const { t } = useLingui();
  return <span className="ownership-share">{t`effective ${effective} %`}</span>;
}

/** A field the platform refused, named by its section (a link there) and its field. */
function RefusedField({ section, field }: { section: WizardSection; field: string }) {
  const { t, i18n } = useLingui();
  const sectionName = i18n._(sectionNames[section]);
  return <>{t`${sectionName}: ${field}`}</>;
}

function OwnersHub({ actor, view }: { actor: BusinessRegistrationActor; view: View }) {
  const { t, i18n } = useLingui();
  return (
    <>
      <p>{t`Beneficial owners hold 25 percent or more, directly or through companies. The tree names them; you may declare others.`}</p>
      <Issues view={view} sections={['persons']} />
      {view.owners.length === 0 ? (
        <p>{t`No beneficial owners yet.`}</p>
      ) : (
        <ul className="wizard-list" aria-label={t`Beneficial owners`}>
          {view.owners.map((o) => (
            <li key={o.id} className="wizard-row">
              <span>
                {o.name} {o.effectiveShare ? <OwnerShare effective={o.effectiveShare} /> : null}
                {o.sourceOfFundsMissing ? <Badge tone="warning">{t`Sources of funds needed`}</Badge> : null}
              </span>
              <PersonActions actor={actor} person={o} onRemove={view.declaredOwners.includes(o.id) ? () => actor.send({ type: 'OWNER.REMOVE', personId: o.id }) : undefined} />
            </li>
          ))}
        </ul>
      )}
      <ButtonGroup>
        <Button onClick={() => actor.send({ type: 'PERSON.ADD' })}>{t`Declare an owner`}</Button>
      </ButtonGroup>
      <Continue actor={actor} to="usersHub" />
    </>
  );
}

function EmailStateText({ state }: { state: PersonRow['emailState'] }): string {
  const { t } = useLingui();
  switch (state) {
    case 0:
      return t`e-mail free`;
    case 1:
      return t`e-mail already has an account`;
    case 2:
      return t`checking the e-mail…`;
    case 3:
      return t`e-mail belongs to an authorised user of a company`;
    case -1:
      return t`e-mail could not be checked`;
    default:
      return t`e-mail not checked yet`;
  }
}

function UsersHub({ actor, view }: { actor: BusinessRegistrationActor; view: View }) {
  const { t, i18n } = useLingui();
  return (
    <>
      <p>{t`Users sign in for the company. At least one needs full access; you have it.`}</p>
      <Issues view={view} sections={['users']} />
      <ul className="wizard-list" aria-label={t`Users`}>
        {view.users.map((u) => (
          <li key={u.id} className="wizard-row">
            <span>
              {u.name || t`(no name yet)`} {u.email ? `· ${u.email}` : ''} ·{' '}
              {u.accessRights && u.accessRights >= 1 && u.accessRights <= 4 ? i18n._(rightsNames[u.accessRights as 1 | 2 | 3 | 4]) : t`no rights chosen`} ·{' '}
              <span className={u.emailState === 1 ? 'field-error' : undefined}>
                <EmailStateText state={u.emailState} />
              </span>
            </span>
            <PersonActions actor={actor} person={u} onRemove={u.isRegistrant ? undefined : () => actor.send({ type: 'USER.REMOVE', personId: u.id })} />
          </li>
        ))}
      </ul>
      <ButtonGroup>
        <Button onClick={() => actor.send({ type: 'PERSON.ADD' })}>{t`Add a user`}</Button>
      </ButtonGroup>
    </>
  );
}

function Review({ actor, view }: { actor: BusinessRegistrationActor; view: View }) {
  const { t, i18n } = useLingui();
  const [password, setPassword] = useState('');
  const g = view.data.general;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'SUBMIT', password });
  };
  return (
    <>
      {view.submitError ? <Alert tone="error">{i18n._(submitErrorMessages[view.submitError])}</Alert> : null}
      {view.serverErrors.length > 0 ? (
        <Alert tone="error">
          {t`We could not accept some entries:`}
          <ul>
            {view.serverErrors.map((e, i) => (
              <li key={i}>
                <Button variant="link" onClick={() => actor.send({ type: 'GO', section: e.section })}>
                  <RefusedField section={e.section} field={e.field} />
                </Button>
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <p>{t`Check what will be sent.`}</p>
      <dl className="wizard-summary">
        <dt>{t`Company`}</dt>
        <dd>
          {g.name} · {g.registrationNumber} · {countryName(g.registrationCountryCode, getUiLanguageTag()) ?? g.registrationCountryCode}
        </dd>
        <dt>{t`Registered address`}</dt>
        <dd>
          {g.address1}, {g.postalCode} {g.city}, {countryName(g.countryCode, getUiLanguageTag()) ?? g.countryCode}
        </dd>
        <dt>{t`You`}</dt>
        <dd>
          {g.repFirstName} {g.repLastName} · {g.repEmail}
        </dd>
        <dt>{t`Directors`}</dt>
        <dd>{view.directors.map((d) => d.name).join(', ')}</dd>
        <dt>{t`Beneficial owners`}</dt>
        <dd>{view.owners.map((o) => (o.effectiveShare ? `${o.name} (${o.effectiveShare} %)` : o.name)).join(', ') || t`none`}</dd>
        <dt>{t`Users`}</dt>
        <dd>{view.users.map((u) => `${u.name} (${u.accessRights ? i18n._(rightsNames[u.accessRights as 1 | 2 | 3 | 4]) : ''})`).join(', ')}</dd>
      </dl>
      <h2 className="wizard-subheading">{t`Shareholders`}</h2>
      {view.tree.length > 0 ? <Tree actor={actor} view={view} readOnly /> : <p>{t`No shareholders.`}</p>}
      <form noValidate onSubmit={submit} className="wizard-form">
        <TextField
          label={t`Choose your password`}
          name="password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          required
          maxLength={128}
          hint={t`8 to 128 characters with at least one letter and one digit.`}
          error={view.passwordError ? t`Use 8 to 128 characters with at least one letter and one digit.` : undefined}
        />
        <ButtonGroup align="end">
          <Button type="submit" busy={view.step === 'submitting'}>
            {t`Send the registration`}
          </Button>
        </ButtonGroup>
      </form>
    </>
  );
}
