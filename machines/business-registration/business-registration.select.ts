/** Snapshot -> view facts for the business registration wizard (the views read only these). */
import type { SnapshotFrom } from 'xstate';
import { flattenTree, formatPercent, effectiveShares, isUboShare, nodeAt, userIds, validateOwnership, type OwnershipIssue } from '../../api/ownership.ts';
import {
  REGISTRANT_ID,
  WIZARD_SECTIONS,
  emptyCompany,
  hasErrors,
  ownerIds,
  personValuesOf,
  userEmailStates,
  validateDueDiligence,
  validateFinancial,
  validateGeneral,
  validateLegal,
  type CompanyValues,
  type PersonValues,
  type WizardSection,
} from './business-registration.rules.ts';
import { personRole, wizardCanSubmit, wizardFlags, type BusinessRegistrationMachine, type HubId } from './business-registration.machine.ts';

export type BusinessRegistrationSnapshot = SnapshotFrom<BusinessRegistrationMachine>;

export type WizardStep = 'loading' | 'dictionariesFailed' | 'clearing' | 'submitting' | 'done' | WizardSection;

const HUBS: readonly HubId[] = ['directorsHub', 'shareholdersHub', 'ownersHub', 'usersHub'];

function stepOf(s: BusinessRegistrationSnapshot): WizardStep {
  if (s.matches('loadingDictionaries') || s.matches('loadingDraft')) return 'loading';
  if (s.matches('dictionariesFailed')) return 'dictionariesFailed';
  if (s.matches('clearing')) return 'clearing';
  if (s.matches('submitting')) return 'submitting';
  if (s.matches('done')) return 'done';
  for (const section of [...WIZARD_SECTIONS, 'review'] as const) if (s.matches({ editing: { form: section } })) return section;
  return 'loading';
}

function subOf(s: BusinessRegistrationSnapshot, step: WizardStep): 'list' | 'personForm' | 'companyForm' | null {
  if (!HUBS.includes(step as HubId)) return null;
  if (s.matches({ editing: { form: { [step]: 'personForm' } } } as never)) return 'personForm';
  if (s.matches({ editing: { form: { [step]: 'companyForm' } } } as never)) return 'companyForm';
  return 'list';
}

export interface PersonRow {
  id: string;
  name: string;
  email: string;
  accessRights: number | null;
  /** document 1 §4 check state of a user's e-mail: undefined unchecked */
  emailState: -1 | 0 | 1 | 2 | 3 | undefined;
  /** exact effective share in the tree, when the person holds some */
  effectiveShare: string | null;
  isUbo: boolean;
  /** an owner asked for source of funds who has not given it (or its details) */
  sourceOfFundsMissing: boolean;
  isRegistrant: boolean;
}

export function selectBusinessRegistrationView(s: BusinessRegistrationSnapshot) {
  const c = s.context;
  const step = stepOf(s);
  const sub = subOf(s, step);
  const data = c.data;
  const flags = wizardFlags(c);
  const emailStates = userEmailStates(data, c.emailChecks, c.checkingEmail);
  const issues: OwnershipIssue[] = validateOwnership(data, { sourceOfWealth: c.sourceOfWealth, emailStates });
  const shares = effectiveShares(data.shareholders);
  const users = userIds(data);
  const row = (id: string): PersonRow => {
    const p = data.personList.find((x) => String(x.id) === id);
    const share = shares.get(id);
    return {
      id,
      name: p ? `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() : '',
      email: typeof p?.email === 'string' ? p.email : '',
      accessRights: typeof p?.accessRights === 'number' ? p.accessRights : null,
      emailState: users.has(id) ? emailStates[id] : undefined,
      effectiveShare: share ? formatPercent(share) : null,
      isUbo: share ? isUboShare(share) : false,
      sourceOfFundsMissing: issues.some(
        (i) => i.section === 'persons' && i.path[0] === id && (i.code === 'uboSourceOfFundsMissing' || i.code === 'uboSourceOfFundsDetailsMissing'),
      ),
      isRegistrant: id === REGISTRANT_ID,
    };
  };
  const hub = HUBS.includes(step as HubId) ? (step as HubId) : null;
  const editing = c.editing;
  const editedNode = editing?.path ? nodeAt(data.shareholders, editing.path) : undefined;
  const personForm: { values: PersonValues; role: ReturnType<typeof personRole>; isNew: boolean; isRegistrant: boolean } | null =
    sub === 'personForm' && hub
      ? {
          values: personValuesOf(
            data.personList.find((p) => editing?.personId !== null && String(p.id) === editing?.personId),
            editedNode ? String(editedNode.share) : '',
          ),
          role: personRole(c, hub),
          isNew: editing?.personId === null || editing?.personId === undefined,
          isRegistrant: editing?.personId === REGISTRANT_ID,
        }
      : null;
  const editedCompany = editing?.companyId ? data.companyList.find((x) => String(x.id) === editing.companyId) : undefined;
  const companyForm: { values: CompanyValues; isNew: boolean } | null =
    sub === 'companyForm'
      ? {
          values: editedCompany
            ? {
                name: editedCompany.name,
                registrationNumber: String(editedCompany.registrationNumber ?? ''),
                registrationCountryCode: String(editedCompany.registrationCountryCode ?? ''),
                share: editedNode ? String(editedNode.share) : '',
                directorIds: editedCompany.directors.map(String),
              }
            : emptyCompany(),
          isNew: !editedCompany,
        }
      : null;
  return {
    step,
    sub,
    busy: s.hasTag('busy'),
    dictionaries: c.dictionaries,
    dictionariesError: c.dictionariesError,
    data,
    errors: c.errors,
    flags,
    /** every check passes: the review may open (the same guard as REVIEW's) */
    canReview: wizardCanSubmit(c),
    /** each section's own validity, for the section list's marks */
    sectionValid: {
      generalForm: !hasErrors(validateGeneral(data.general)),
      financialInfoForm: !hasErrors(validateFinancial(data.financial, c.dictionaries?.questions ?? [])),
      dueDilligenceForm: !hasErrors(validateDueDiligence(data.dueDiligence)),
      legalForm: !hasErrors(validateLegal(data.legal, c.dictionaries?.agreements ?? [])),
      directorsHub: flags.directors,
      shareholdersHub: flags.shareholders && flags.companies,
      ownersHub: flags.persons,
      usersHub: flags.users,
    } satisfies Record<Exclude<WizardSection, 'review'>, boolean>,
    showIssues: c.showIssues,
    issues,
    persons: data.personList.map((p) => row(String(p.id))),
    directors: data.directors.map((d) => row(String(d))),
    owners: ownerIds(data).map(row),
    declaredOwners: data.ultimateBeneficiaryOwners.map(String),
    users: [...users].map(row),
    /** document 1 §4 state of the registrant's own e-mail (1: an account exists, and the registration is refused) */
    registrantEmailState: emailStates[REGISTRANT_ID],
    tree: flattenTree(data),
    personForm,
    companyForm,
    confirmingClear: s.matches({ editing: { dialog: 'confirmingClear' } }),
    draftSave: c.draftSave,
    saving: s.matches({ editing: { saving: 'saving' } }),
    restored: c.restored,
    passwordError: c.passwordError,
    serverErrors: c.serverErrors,
    submitError: c.submitError,
    sentTo: c.sentTo,
  };
}

export type BusinessRegistrationView = ReturnType<typeof selectBusinessRegistrationView>;
