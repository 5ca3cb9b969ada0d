/** Phones (profileInquiry): the list with the primary and confirmed marks; add, change, confirm with a code. */
import { useState, type FormEvent } from 'react';
import { Badge } from '../../ui/badge.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { Phone } from '../../../api/profile.ts';
import { callMethod } from '../../lib/request.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { phoneConfirmActors } from './actors.ts';
import { CodeConfirmPanel } from './code-confirm-panel.tsx';
import { invalidateAfterChange, phonesQuery } from './queries.ts';
import { ChangeError, Loaded, ProfileSection } from './section.tsx';
import { useChange } from './use-change.ts';

type Open = { kind: 'add' } | { kind: 'replace'; phone: Phone } | { kind: 'confirm'; phone: Phone } | null;

export const phoneLabel = (p: Pick<Phone, 'phoneCountryCode' | 'phone'>) => `+${p.phoneCountryCode} ${p.phone}`;

export function PhonesSection({ acting }: { acting: number | null }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const query = useQuery(phonesQuery(acting));
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const show = (next: Open) => {
    setNotice(null);
    setOpen(next);
  };
  return (
    <ProfileSection id="phones" title={t`Phones`}>
      <Loaded query={query}>
        {(phones) => (
          <>
            {phones.length === 0 ? <p>{t`You have no phone number on file.`}</p> : null}
            <ul className="profile-list">
              {phones.map((p) => (
                <li key={p.id}>
                  <span className="profile-item-main">{phoneLabel(p)}</span>{' '}
                  {p.status === 'Primary' ? <Badge>{t`Primary`}</Badge> : null}{' '}
                  <Badge tone={p.confirmed ? 'success' : 'warning'}>{p.confirmed ? t`Confirmed` : t`Not confirmed`}</Badge>
                  <div className="actions">
                    {p.confirmed ? null : (
                      <Button variant="secondary" onClick={() => show({ kind: 'confirm', phone: p })} aria-label={t`Confirm ${phoneLabel(p)}`}>
                        {t`Confirm`}
                      </Button>
                    )}
                    <Button variant="secondary" onClick={() => show({ kind: 'replace', phone: p })} aria-label={t`Change ${phoneLabel(p)}`}>
                      {t`Change`}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
            {notice ? <p role="status">{notice}</p> : null}
            {open?.kind === 'confirm' ? (
              <CodeConfirmPanel
                key={open.phone.id}
                kind="phone"
                targetId={open.phone.id}
                targetLabel={phoneLabel(open.phone)}
                actors={phoneConfirmActors}
                onFinished={(confirmed) => {
                  setOpen(null);
                  if (confirmed) {
                    setNotice(t`Phone ${phoneLabel(open.phone)} confirmed.`);
                    void invalidateAfterChange(client);
                  }
                }}
              />
            ) : null}
            {open?.kind === 'add' || open?.kind === 'replace' ? (
              <PhoneForm
                key={open.kind === 'replace' ? open.phone.id : 'add'}
                phone={open.kind === 'replace' ? open.phone : null}
                onClose={(saved) => {
                  setOpen(null);
                  if (saved) setNotice(t`Phone number saved. Confirm it with the code we send.`);
                }}
              />
            ) : null}
            {open === null ? (
              <div className="actions">
                <Button variant="secondary" onClick={() => show({ kind: 'add' })}>
                  {t`Add a phone`}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </Loaded>
    </ProfileSection>
  );
}

function PhoneForm({ phone, onClose }: { phone: Phone | null; onClose(saved: boolean): void }) {
  const { t } = useLingui();
  const [countryCode, setCountryCode] = useState(phone ? phone.phoneCountryCode : '');
  const [number, setNumber] = useState(phone ? phone.phone : '');
  const change = useChange(
    (vars: { phoneCountryCode: string; phone: string }) =>
      // The country code's plus signs are removed before sending (document 1 §5); phone type 2 (§9).
      phone
        ? callMethod('replacePhone', { phoneId: phone.id, phoneCountryCode: vars.phoneCountryCode.replace(/\+/g, ''), phone: vars.phone, phoneType: 2 })
        : callMethod('addPhone', { phoneCountryCode: vars.phoneCountryCode.replace(/\+/g, ''), phone: vars.phone, phoneType: 2 }),
    () => onClose(true),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.run({ phoneCountryCode: countryCode, phone: number });
  };
  const codeError = change.fieldError('phoneCountryCode');
  const numberError = change.fieldError('phone');
  return (
    <form className="profile-panel" onSubmit={submit} noValidate aria-label={phone ? t`Change ${phoneLabel(phone)}` : t`Add a phone`}>
      {codeError || numberError ? null : <ChangeError text={change.errorText} />}
      <TextField label={t`Country code`} name="phoneCountryCode" value={countryCode} onChange={setCountryCode} inputMode="tel" autoComplete="tel-country-code" required maxLength={5} hint={t`For example +370`} error={codeError} />
      <TextField label={t`Phone number`} name="phone" value={number} onChange={setNumber} inputMode="tel" autoComplete="tel-national" required maxLength={20} error={numberError} />
      <div className="actions">
        <Button type="submit" busy={change.busy}>
          {t`Save`}
        </Button>
        <Button variant="secondary" onClick={() => onClose(false)}>
          {t`Cancel`}
        </Button>
      </div>
    </form>
  );
}
