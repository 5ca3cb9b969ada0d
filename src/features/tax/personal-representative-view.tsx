/**
 * /self-certification-representative (document 3 §2, §6; issue 18 item 4): a company's
 * representative who is not a user opens the link e-mailed to them (it carries only the secret),
 * types the address it went to, and certifies their own tax details with the same flow as a
 * customer. Every call goes through the representative's store (personal-representative-store.ts):
 * the request hooks carry no token and their fromEmail + authSecret, and any method outside the
 * four actions answers IM without a request. A refused link (401) ends here: the route goes to
 * sign in with a message.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { configureRequest, requestHooks } from '../../lib/request-hooks.ts';
import { Button } from '../../ui/button.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { PersonalCertificationFlow } from './personal-certification-view.tsx';
import { keepRepresentativeEmail, readRepresentativeEmail, representativeCall, representativeRequestHooks } from './personal-representative-store.ts';
import type { PersonalCertificationCalls } from './personal-actors.ts';
import './tax.css';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface RepresentativeCertificationProps {
  authSecret: string;
  today: string;
  onSign(url: string): void;
  onUnauthorised(): void;
  /** tests provide the calls */
  calls?: PersonalCertificationCalls;
}

export function RepresentativeCertificationPage({ authSecret, today, onSign, onUnauthorised, calls }: RepresentativeCertificationProps) {
  const [email, setEmail] = useState<string | null>(() => readRepresentativeEmail());
  if (email === null)
    return (
      <EmailStep
        onEmail={(e) => {
          keepRepresentativeEmail(e);
          setEmail(e);
        }}
      />
    );
  return <RepresentativeFlow fromEmail={email} authSecret={authSecret} today={today} onSign={onSign} onUnauthorised={onUnauthorised} calls={calls} />;
}

function RepresentativeFlow({ fromEmail, authSecret, today, onSign, onUnauthorised, calls }: RepresentativeCertificationProps & { fromEmail: string }) {
  // The hooks are set before the flow mounts (its first call goes out as it starts), and the
  // previous ones come back when the page is left.
  const [previous] = useState(() => {
    const before = requestHooks();
    configureRequest(representativeRequestHooks(() => ({ fromEmail, authSecret })));
    return before;
  });
  useEffect(() => () => configureRequest(previous), [previous]);
  return <PersonalCertificationFlow today={today} call={representativeCall} calls={calls} onSign={onSign} onUnauthorised={onUnauthorised} />;
}

function EmailStep({ onEmail }: { onEmail(email: string): void }) {
  const { t } = useLingui();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const email = value.trim();
    if (!EMAIL.test(email)) {
      setError(t`Enter the e-mail address the link was sent to.`);
      return;
    }
    onEmail(email);
  };
  return (
    <div className="tax-page">
      <StepHeading>{t`Confirm your tax details`}</StepHeading>
      <p className="tax-lead">{t`The company you represent asks you to certify where you pay tax. First, confirm the e-mail address this link was sent to.`}</p>
      <form className="tax-step tax-email" noValidate onSubmit={submit}>
        <TextField label={t`Your e-mail address`} name="fromEmail" type="email" autoComplete="email" value={value} onChange={setValue} error={error} maxLength={254} />
        <div className="actions">
          <Button type="submit">{t`Continue`}</Button>
        </div>
      </form>
    </div>
  );
}
