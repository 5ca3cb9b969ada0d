/**
 * E-mail addresses (emailInquiry): add, delete, make primary, confirm with a code
 * (machines/code-confirm); the username (the sign-in e-mail) and its change request with its
 * status and log: create, confirm with the code mailed to the new address, cancel.
 */
import { useState, type FormEvent } from 'react';
import { Badge } from '../../ui/badge.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { callMethod } from '../../lib/request.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { emailConfirmActors } from './actors.ts';
import { CodeConfirmPanel } from './code-confirm-panel.tsx';
import { useUsernameEventName, useUsernameStatusNames } from './messages.ts';
import { emailsQuery, invalidateAfterChange } from './queries.ts';
import { ChangeError, Loaded, ProfileSection } from './section.tsx';
import { useChange } from './use-change.ts';

type Open = { kind: 'add' } | { kind: 'confirm'; emailId: number; address: string } | null;

export function EmailsSection({ acting }: { acting: number | null }) {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const query = useQuery(emailsQuery(acting));
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const statusNames = useUsernameStatusNames();
  const eventName = useUsernameEventName();
  const remove = useChange((vars: { emailId: number }) => callMethod('deleteEmail', vars), () => setNotice(t`The address was deleted.`));
  const primary = useChange((vars: { emailId: number }) => callMethod('setPrimaryEmail', vars), () => setNotice(t`The primary address was changed.`));
  const show = (next: Open) => {
    setNotice(null);
    remove.reset();
    primary.reset();
    setOpen(next);
  };
  return (
    <ProfileSection id="emails" title={t`E-mail addresses`}>
      <Loaded query={query}>
        {(data) => (
          <>
            <ul className="profile-list">
              {data.emails.map((e) => (
                <li key={e.id}>
                  <span className="profile-item-main">{e.emailAddress}</span>{' '}
                  {e.status === 'Primary' ? <Badge>{t`Primary`}</Badge> : null}{' '}
                  <Badge tone={e.confirmed ? 'success' : 'warning'}>{e.confirmed ? t`Confirmed` : t`Not confirmed`}</Badge>
                  <div className="actions">
                    {e.confirmed ? null : (
                      <Button variant="secondary" onClick={() => show({ kind: 'confirm', emailId: e.id, address: e.emailAddress })} aria-label={t`Confirm ${e.emailAddress}`}>
                        {t`Confirm`}
                      </Button>
                    )}
                    {e.confirmed && e.status !== 'Primary' ? (
                      <Button variant="secondary" busy={primary.busy} onClick={() => primary.run({ emailId: e.id })} aria-label={`${t`Make primary`}: ${e.emailAddress}`}>
                        {t`Make primary`}
                      </Button>
                    ) : null}
                    {e.status !== 'Primary' ? (
                      <Button variant="secondary" busy={remove.busy} onClick={() => remove.run({ emailId: e.id })} aria-label={t`Delete ${e.emailAddress}`}>
                        {t`Delete`}
                      </Button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
            <ChangeError text={remove.errorText ?? primary.errorText} />
            {notice ? <p role="status">{notice}</p> : null}
            {open?.kind === 'confirm' ? (
              <CodeConfirmPanel
                key={open.emailId}
                kind="email"
                targetId={open.emailId}
                targetLabel={open.address}
                actors={emailConfirmActors}
                onFinished={(confirmed) => {
                  setOpen(null);
                  if (confirmed) {
                    setNotice(t`${open.address} confirmed.`);
                    void invalidateAfterChange(client);
                  }
                }}
              />
            ) : null}
            {open?.kind === 'add' ? (
              <EmailAddForm
                onClose={(added) => {
                  setOpen(null);
                  if (added) setNotice(t`The address was added. Confirm it with the code we send.`);
                }}
              />
            ) : null}
            {open === null ? (
              <div className="actions">
                <Button variant="secondary" onClick={() => show({ kind: 'add' })}>
                  {t`Add an e-mail address`}
                </Button>
              </div>
            ) : null}

            <h3>{t`Username`}</h3>
            <p>{t`You sign in with ${data.login}.`}</p>
            {data.usernameChangeRequest ? (
              <div className="profile-panel">
                <p>
                  {t`Change to ${data.usernameChangeRequest.desiredUsername}:`} <strong>{statusNames[data.usernameChangeRequest.status]}</strong>
                </p>
                <ol className="profile-log" aria-label={t`What happened`}>
                  {data.usernameChangeRequest.logs.map((l, i) => (
                    <li key={i}>
                      {i18n.date(l.at, { dateStyle: 'medium', timeStyle: 'short' })}: {eventName(l.event)}
                    </li>
                  ))}
                </ol>
                {data.usernameChangeRequest.status === 'active' ? <UsernameCodeForm requestId={data.usernameChangeRequest.requestId} /> : null}
                <UsernameCancel requestId={data.usernameChangeRequest.requestId} />
              </div>
            ) : null}
            {data.usernameChangeRequest === null || data.usernameChangeRequest.status === 'failed' ? <UsernameChangeForm /> : null}
          </>
        )}
      </Loaded>
    </ProfileSection>
  );
}

function EmailAddForm({ onClose }: { onClose(added: boolean): void }) {
  const { t } = useLingui();
  const [address, setAddress] = useState('');
  const change = useChange((vars: { emailAddress: string }) => callMethod('addEmail', vars), () => onClose(true));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.run({ emailAddress: address.trim() });
  };
  const fieldError = change.fieldError('emailAddress');
  return (
    <form className="profile-panel" onSubmit={submit} noValidate aria-label={t`Add an e-mail address`}>
      {fieldError ? null : <ChangeError text={change.errorText} />}
      <TextField label={t`E-mail address`} name="emailAddress" type="email" value={address} onChange={setAddress} autoComplete="email" required error={fieldError} />
      <div className="actions">
        <Button type="submit" busy={change.busy}>
          {t`Add`}
        </Button>
        <Button variant="secondary" onClick={() => onClose(false)}>
          {t`Cancel`}
        </Button>
      </div>
    </form>
  );
}

function UsernameChangeForm() {
  const { t } = useLingui();
  const [desired, setDesired] = useState('');
  const change = useChange((vars: { desiredUsername: string }) => callMethod('usernameChangeRequestCreate', vars));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.run({ desiredUsername: desired.trim() });
  };
  const fieldError = change.fieldError('desiredUsername');
  return (
    <form onSubmit={submit} noValidate aria-label={t`Change username`}>
      {fieldError ? null : <ChangeError text={change.errorText} />}
      <TextField
        label={t`New username (e-mail address)`}
        name="desiredUsername"
        type="email"
        value={desired}
        onChange={setDesired}
        autoComplete="email"
        required
        hint={t`We send a code to the new address. The change applies once your identity is verified.`}
        error={fieldError}
      />
      <div className="actions">
        <Button type="submit" variant="secondary" busy={change.busy}>
          {t`Change username`}
        </Button>
      </div>
    </form>
  );
}

function UsernameCodeForm({ requestId }: { requestId: number }) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const change = useChange((vars: { requestId: number; code: string }) => callMethod('usernameChangeRequestEmailConfirm', vars));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.run({ requestId, code: code.trim() });
  };
  const fieldError = change.fieldError('code');
  return (
    <form onSubmit={submit} noValidate aria-label={t`Confirm the new username`}>
      {fieldError ? null : <ChangeError text={change.errorText} />}
      <TextField label={t`Code from the e-mail`} name="usernameCode" value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required error={fieldError} />
      <div className="actions">
        <Button type="submit" busy={change.busy}>
          {t`Confirm`}
        </Button>
      </div>
    </form>
  );
}

function UsernameCancel({ requestId }: { requestId: number }) {
  const { t } = useLingui();
  const change = useChange((vars: { requestId: number }) => callMethod('usernameChangeRequestDelete', vars));
  return (
    <>
      <ChangeError text={change.errorText} />
      <div className="actions">
        <Button variant="secondary" busy={change.busy} onClick={() => change.run({ requestId })}>
          {t`Cancel the username change`}
        </Button>
      </div>
    </>
  );
}
