/**
 * Changing a card's PIN (document 2 §5, §7; issue 16 item 3): the new PIN and its repeat (4 digits,
 * hidden while typed, never autocompleted) and the confirm flag; a PIN too easy to guess (one digit
 * repeated, a run such as 1234: api/cards.ts isWeakPin) is refused here before calling, and by the
 * platform again. A thin view of machines/card-pin-change; what is typed is cleared once sent.
 */
import { useEffect, useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { CardPinChangeMachine } from '../../../machines/card-pin-change/card-pin-change.machine.ts';
import { selectPinChangeView } from '../../../machines/card-pin-change/card-pin-change.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CheckboxField } from '../../ui/choice-fields.tsx';
import { PinField } from '../../ui/secret-fields.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { createPinChangeLogic } from './secret-actors.ts';

/** The PIN change with the app's actors (the /card/{accountId}/pin/ page). */
export function PinChangePanel({ accountId }: { accountId: number }) {
  const logic = useMemo(() => createPinChangeLogic(), []);
  const actor = useFlowActor(logic, { input: { accountId } });
  return <PinChangeView actor={actor} />;
}

export function PinChangeView({ actor }: { actor: ActorRefFrom<CardPinChangeMachine> }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectPinChangeView);
  const [pinCode, setPin] = useState('');
  const [pinCodeRepeat, setRepeat] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  // the typed PINs are not kept once the new PIN is set
  useEffect(() => {
    if (view.step !== 'done') return;
    setPin('');
    setRepeat('');
    setConfirmed(false);
  }, [view.step]);

  if (view.step === 'done') {
    return (
      <section className="pin-change">
        <StepHeading level={2}>{t`Change the PIN`}</StepHeading>
        <Alert tone="success">{t`Your new PIN is set. Use it from your next payment.`}</Alert>
        <div className="actions">
          <Button variant="secondary" onClick={() => actor.send({ type: 'PIN.AGAIN' })}>
            {t`Change it again`}
          </Button>
        </div>
      </section>
    );
  }

  const pinError =
    view.error === 'pinFormat'
      ? t`Enter 4 digits.`
      : view.error === 'pinWeak'
        ? t`Choose a PIN that is harder to guess: not one digit repeated and not a run such as 1234.`
        : undefined;
  const repeatError = view.error === 'pinMismatch' ? t`The two PINs do not match.` : undefined;
  const generalError =
    view.error === 'network'
      ? t`No answer from the server. Try again.`
      : view.error === 'failed'
        ? view.failure
          ? describeFailure(view.failure)
          : t`The PIN was not changed.`
        : null;
  return (
    <section className="pin-change">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'PIN.SUBMIT', confirmed, pinCode, pinCodeRepeat });
        }}
      >
        <StepHeading level={2}>{t`Change the PIN`}</StepHeading>
        {generalError ? <Alert tone="error">{generalError}</Alert> : null}
        <PinField label={t`New PIN`} name="pinCode" value={pinCode} onChange={setPin} error={pinError} hint={t`4 digits, not easy to guess`} disabled={view.submitting} />
        <PinField label={t`Repeat the new PIN`} name="pinCodeRepeat" value={pinCodeRepeat} onChange={setRepeat} error={repeatError} disabled={view.submitting} />
        <CheckboxField
          label={t`I want to change the PIN: the old one stops working.`}
          name="confirm"
          checked={confirmed}
          onChange={setConfirmed}
          error={view.error === 'notConfirmed' ? t`Confirm that you want to change the PIN.` : undefined}
          disabled={view.submitting}
        />
        <div className="actions">
          <Button type="submit" busy={view.submitting}>
            {t`Change the PIN`}
          </Button>
        </div>
      </form>
    </section>
  );
}
