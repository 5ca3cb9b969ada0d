/**
 * /company-access (document 1 §2 "manage users", document 3 §3 "Access rights", §7; issue 17
 * item 5): who may act for the company, with which rights. A user who may manage the company (full
 * rights 2, or its owner) changes a user's rights (0-4, right 5 hidden from the choice; 0 takes the
 * access away after a confirmation), removes access, and invites a user by e-mail with rights (the
 * persons of the structure who are not users yet offered as a quick choice). Everyone else reads
 * the list only. The platform's refusals (VF lastFullRights, ownerRights, alreadyHasAccess...) are
 * worded by src/lib/validation-messages.ts on their fields.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { AccessEntry, Representative } from '../../../api/business.ts';
import type { Failure } from '../../../api/envelope.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { accessRightsQuery, companyQueryKey, potentialUsersQuery } from './queries.ts';
import { CHANGE_CHOICES, INVITE_CHOICES, rightNames, type AccessRightValue } from './rights.ts';
import './company.css';

/** The sentence of the VF error on one field, or of the whole failure when it names no such field. */
function fieldError(failure: Failure | null, param: string): string | undefined {
  const error = failure?.validationErrors?.find((e) => e.param === param);
  return error ? validationMessage(error) : undefined;
}

const fullName = (e: { firstName: string; lastName: string }) => `${e.firstName} ${e.lastName}`.trim();

export function CompanyAccessPage({ actingCustomerId, mayManage }: { actingCustomerId: number | null; mayManage: boolean }) {
  const { t, i18n } = useLingui();
  const query = useQuery(accessRightsQuery(actingCustomerId));
  const [changing, setChanging] = useState<{ entry: AccessEntry; removing: boolean } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const entries = query.data?.accessRights ?? [];

  const columns: DataTableColumn<AccessEntry>[] = [
    {
      header: t`Name`,
      render: (e) => (
        <span className="company-person">
          <span>{fullName(e)}</span>
          {e.isOwner ? <Badge tone="info">{t`Owner`}</Badge> : null}
        </span>
      ),
    },
    { header: t`E-mail`, render: (e) => <span className="company-email">{e.email}</span> },
    { header: t`Rights`, render: (e) => <span>{i18n._(rightNames[e.accessRights])}</span> },
    { header: t`Status`, render: (e) => (e.activated ? <Badge tone="success">{t`Active`}</Badge> : <Badge tone="warning">{t`Invited, not activated yet`}</Badge>) },
  ];
  if (mayManage) {
    columns.push({
      header: t`Actions`,
      hideHeader: true,
      render: (e) => {
        const name = fullName(e);
        return e.isOwner ? (
          <span className="row-note">{t`The owner keeps full access.`}</span>
        ) : (
          <ButtonGroup label={t`Access of ${name}`}>
            <Button variant="secondary" size="sm" onClick={() => setChanging({ entry: e, removing: false })}>
              {t`Change rights`} <span className="visually-hidden">{t`of ${name}`}</span>
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setChanging({ entry: e, removing: true })}>
              {t`Remove access`} <span className="visually-hidden">{t`of ${name}`}</span>
            </Button>
          </ButtonGroup>
        );
      },
    });
  }

  return (
    <div className="company-page">
      <StepHeading>{t`Users and access`}</StepHeading>
      <p className="company-lead">
        {mayManage
          ? t`The people who may act for the company, with their rights. Change their rights, take access away or invite someone new.`
          : t`The people who may act for the company, with their rights. Only the owner or a user with full access can change them.`}
      </p>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {query.isPending ? (
        <Skeleton lines={4} label={t`Loading the users`} />
      ) : query.isError ? (
        <Alert tone="error">{t`The users could not be loaded.`}</Alert>
      ) : (
        <DataTable caption={t`Users of the company`} columns={columns} rows={entries} rowKey={(e) => e.id} card />
      )}
      {mayManage ? <InviteForm actingCustomerId={actingCustomerId} onInvited={setNotice} /> : null}
      {changing ? (
        <ChangeRightsDialog
          key={`${changing.entry.id}-${String(changing.removing)}`}
          entry={changing.entry}
          startRemoving={changing.removing}
          onClose={() => setChanging(null)}
          onDone={(message) => {
            setChanging(null);
            setNotice(message);
          }}
        />
      ) : null}
    </div>
  );
}

function ChangeRightsDialog({ entry, startRemoving, onClose, onDone }: { entry: AccessEntry; startRemoving: boolean; onClose(): void; onDone(message: string): void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const name = fullName(entry);
  const [rights, setRights] = useState<AccessRightValue>(entry.accessRights);
  const [confirming, setConfirming] = useState(startRemoving);
  const [failure, setFailure] = useState<Failure | null>(null);
  const update = useMutation({
    mutationFn: (accessRights: AccessRightValue) => callMethod('businessAccessRightsUpdate', { id: entry.id, accessRights }),
    onSuccess: async (answer, accessRights) => {
      if (isFailure(answer)) {
        setFailure(answer);
        return;
      }
      await queryClient.invalidateQueries({ queryKey: companyQueryKey });
      const label = i18n._(rightNames[accessRights]);
      onDone(accessRights === 0 ? t`${name} no longer has access to the company.` : t`${name} now has the rights: ${label}.`);
    },
  });
  const refusal = failure ? (fieldError(failure, 'accessRights') ?? describeFailure(failure)) : null;
  const save = (value: AccessRightValue) => {
    setFailure(null);
    update.mutate(value);
  };

  if (confirming) {
    return (
      <Dialog
        open
        title={t`Remove the access of ${name}?`}
        onClose={onClose}
        actions={
          <>
            <Button variant="secondary" onClick={onClose}>
              {t`Keep the access`}
            </Button>
            <Button variant="danger" busy={update.isPending} onClick={() => save(0)}>
              {t`Remove access`}
            </Button>
          </>
        }
      >
        <p>{t`${name} will no longer be able to sign in for the company or act for it. You can invite them again later.`}</p>
        {refusal ? <Alert tone="error">{refusal}</Alert> : null}
      </Dialog>
    );
  }
  return (
    <Dialog
      open
      title={t`Change the rights of ${name}`}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t`Cancel`}
          </Button>
          <Button
            busy={update.isPending}
            disabled={rights === entry.accessRights}
            onClick={() => {
              if (rights === 0) {
                setFailure(null);
                setConfirming(true);
              } else save(rights);
            }}
          >
            {t`Save the rights`}
          </Button>
        </>
      }
    >
      <SelectField
        label={t`Rights`}
        name="accessRights"
        value={String(rights)}
        onChange={(value) => setRights(Number(value) as AccessRightValue)}
        options={CHANGE_CHOICES.map((r) => ({ value: String(r), label: r === 0 ? t`No access (remove the user)` : i18n._(rightNames[r]) }))}
        error={refusal ?? undefined}
      />
    </Dialog>
  );
}

interface InviteDraft {
  email: string;
  firstName: string;
  lastName: string;
  accessRights: string;
  representativeId: number | null;
}
const emptyInvite: InviteDraft = { email: '', firstName: '', lastName: '', accessRights: '', representativeId: null };

function InviteForm({ actingCustomerId, onInvited }: { actingCustomerId: number | null; onInvited(message: string): void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const potential = useQuery(potentialUsersQuery(actingCustomerId));
  const [draft, setDraft] = useState<InviteDraft>(emptyInvite);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [rightsMissing, setRightsMissing] = useState(false);
  const invite = useMutation({
    mutationFn: (d: InviteDraft) =>
      callMethod('representativeAdd', {
        email: d.email,
        firstName: d.firstName,
        lastName: d.lastName,
        accessRights: Number(d.accessRights) as 1 | 2 | 3 | 4 | 5,
        ...(d.representativeId !== null ? { representativeId: d.representativeId } : {}),
      }),
    onSuccess: async (answer, d) => {
      if (isFailure(answer)) {
        setFailure(answer);
        return;
      }
      await queryClient.invalidateQueries({ queryKey: companyQueryKey });
      setDraft(emptyInvite);
      const email = d.email.trim();
      onInvited(
        answer.accessRight.activated
          ? t`${email} can now act for the company.`
          : t`An invitation was sent to ${email}. They can act for the company once they activate their access.`,
      );
    },
  });
  const set = (patch: Partial<InviteDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const choose = (p: Representative) => {
    setFailure(null);
    setDraft((d) => ({ ...d, email: p.email ?? '', firstName: p.firstName, lastName: p.lastName, representativeId: p.id }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (draft.accessRights === '') {
      setRightsMissing(true);
      return;
    }
    setRightsMissing(false);
    invite.mutate(draft);
  };
  const people = (potential.data?.representatives ?? []).filter((p) => p.type === 'person');
  const otherFailure =
    failure && !(failure.validationErrors ?? []).some((e) => ['email', 'firstName', 'lastName', 'accessRights'].includes(e.param)) ? describeFailure(failure) : null;

  return (
    <Card as="section" title={t`Invite a user`} className="company-invite">
      {people.length > 0 ? (
        <div className="company-quick-choice">
          <p id="company-quick-choice">{t`People of the company who are not users yet:`}</p>
          <ul aria-labelledby="company-quick-choice">
            {people.map((p) => {
              const name = fullName(p);
              return (
                <li key={p.id}>
                  <Button variant="secondary" size="sm" onClick={() => choose(p)} aria-pressed={draft.representativeId === p.id}>
                    {t`Invite ${name}`}
                  </Button>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <form onSubmit={submit} noValidate className="company-invite-form">
        <TextField
          label={t`E-mail address`}
          name="email"
          type="email"
          autoComplete="off"
          value={draft.email}
          onChange={(email) => set({ email })}
          error={fieldError(failure, 'email')}
          required
        />
        <TextField label={t`First name`} name="firstName" value={draft.firstName} onChange={(firstName) => set({ firstName })} error={fieldError(failure, 'firstName')} required />
        <TextField label={t`Last name`} name="lastName" value={draft.lastName} onChange={(lastName) => set({ lastName })} error={fieldError(failure, 'lastName')} required />
        <SelectField
          label={t`Rights`}
          name="inviteAccessRights"
          value={draft.accessRights}
          placeholder={t`Choose the rights`}
          onChange={(accessRights) => {
            setRightsMissing(false);
            set({ accessRights });
          }}
          options={INVITE_CHOICES.map((r) => ({ value: String(r), label: i18n._(rightNames[r]) }))}
          error={rightsMissing ? t`Choose the rights.` : fieldError(failure, 'accessRights')}
        />
        {otherFailure ? <Alert tone="error">{otherFailure}</Alert> : null}
        <ButtonGroup>
          <Button type="submit" busy={invite.isPending}>
            {t`Send the invitation`}
          </Button>
        </ButtonGroup>
      </form>
    </Card>
  );
}
