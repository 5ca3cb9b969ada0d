/**
 * The administrator's decision on one document or identity job (machines/admin-review): choose the
 * decision (those of the target's kind), give the reason when rejecting or for a name mismatch,
 * confirm, then the call. Each step's heading
 * takes focus (StepHeading); the reason's error sits on its field (the client's check and the
 * platform's VF alike); a failed call offers a retry. Reads through admin-review.select.ts; sends
 * events only (the radio choice and the reason keep what is typed until Continue sends it).
 */
import { useId, useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { useLingui } from '@lingui/react/macro';
import {
  DECISIONS_OF,
  DECISIONS_WITH_REASON,
  adminReviewMachine,
  type AdminDecision,
  type AdminReviewMachine,
  type DecideRequest,
  type DecideResult,
  type ReasonError,
  type ReviewTarget,
} from '../../../machines/admin-review/admin-review.machine.ts';
import { selectAdminReviewView } from '../../../machines/admin-review/admin-review.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { RetryAlert, useStepControls } from '../../ui/step-controls.tsx';
import { validationMessage, validationMessages } from '../../lib/validation-messages.ts';

/** The decision's actor with the real call (the queue provides it). */
export function useAdminReview(target: ReviewTarget, decide: (request: DecideRequest) => Promise<DecideResult>) {
  // The call and the target are read once, when the actor starts.
  const machine = useMemo(() => adminReviewMachine.provide({ actors: { decide: fromPromise(({ input }) => decide(input)) } }), []); // eslint-disable-line react-hooks/exhaustive-deps
  return useFlowActor(machine, { input: { target } });
}

export function useDecisionNames(): Record<AdminDecision, string> {
  const { t } = useLingui();
  return {
    confirm: t`Confirm the document`,
    reject: t`Reject it`,
    nameMismatch: t`Name does not match`,
    expire: t`Mark it expired`,
    investigate: t`Put it under investigation`,
    approve: t`Approve it`,
    rejectFinal: t`Reject it, no new request`,
  };
}

export interface ReviewDecisionFormProps {
  actor: ActorRefFrom<AdminReviewMachine>;
  /** what is decided on, e.g. "Passport of Uma Unverified" */
  subject: string;
}

export function ReviewDecisionForm({ actor, subject }: ReviewDecisionFormProps) {
  const { t } = useLingui();
  const id = useId();
  const view = useSelector(actor, selectAdminReviewView);
  const names = useDecisionNames();
  const [choice, setChoice] = useState<AdminDecision | ''>(view.decision ?? '');
  const [choiceMissing, setChoiceMissing] = useState(false);
  const [reason, setReason] = useState(view.reason);

  const reasonText = (e: ReasonError | null): string | undefined => {
    if (!e) return undefined;
    if (e.code === 'required') return t`Give the reason: the customer reads it.`;
    if (e.code === 'tooLong') return t`At most ${e.max} characters.`;
    return e.error ? validationMessage(e.error) : e.detail;
  };
  const { submit, back, cancel } = useStepControls(actor, view);

  switch (view.step) {
    case 'choosing':
      return (
        <form
          key="choosing"
          noValidate
          onSubmit={submit(() => {
            if (choice === '') setChoiceMissing(true);
            else actor.send({ type: 'DECISION.CHOOSE', decision: choice });
          })}
        >
          <StepHeading level={2}>{t`Decide: ${subject}`}</StepHeading>
          <fieldset aria-describedby={choiceMissing ? `${id}-choice-error` : undefined}>
            <legend>{t`Decision`}</legend>
            {DECISIONS_OF[view.target.kind].map((decision) => (
              <label key={decision} className="choice">
                <input
                  type="radio"
                  name={`${id}-decision`}
                  value={decision}
                  checked={choice === decision}
                  onChange={() => {
                    setChoice(decision);
                    setChoiceMissing(false);
                  }}
                />{' '}
                {names[decision]}
              </label>
            ))}
            {choiceMissing ? (
              <p id={`${id}-choice-error`} className="field-error" role="alert">
                {t`Choose a decision.`}
              </p>
            ) : null}
          </fieldset>
          <div className="actions">
            <Button type="submit">{t`Continue`}</Button>
            {cancel}
          </div>
        </form>
      );
    case 'reasoning':
      return (
        // Keys: each step is its own element, so its heading mounts and takes focus (StepHeading).
        <form key="reasoning" noValidate onSubmit={submit(() => actor.send({ type: 'REASON.SUBMIT', reason }))}>
          <StepHeading level={2}>{t`Reason: ${subject}`}</StepHeading>
          <p>{view.decision ? names[view.decision] : null}</p>
          <Field label={t`Reason shown to the customer`} hint={t`Up to 500 characters.`} error={reasonText(view.reasonError)}>
            {(control) => <textarea {...control} name="reason" rows={3} value={reason} onChange={(e) => setReason(e.currentTarget.value)} required />}
          </Field>
          <div className="actions">
            <Button type="submit">{t`Continue`}</Button>
            {back}
            {cancel}
          </div>
        </form>
      );
    case 'confirming':
    case 'deciding':
    case 'failed':
      return (
        <div key="checking">
          <StepHeading level={2}>{t`Check the decision: ${subject}`}</StepHeading>
          <dl className="facts">
            <dt>{t`Decision`}</dt>
            <dd>{view.decision ? names[view.decision] : null}</dd>
            {view.decision !== null && DECISIONS_WITH_REASON.has(view.decision) ? (
              <>
                <dt>{t`Reason shown to the customer`}</dt>
                <dd>{view.reason}</dd>
              </>
            ) : null}
          </dl>
          {view.step === 'failed' && view.failure ? (
            <RetryAlert actor={actor} title={t`The decision was not recorded`}>
              <p>{view.failure.code === 'network' ? t`The connection failed. Try again.` : (view.failure.errors?.length ? validationMessages(view.failure.errors) : (view.failure.detail ?? t`The decision was refused.`))}</p>
            </RetryAlert>
          ) : null}
          <div className="actions">
            {view.step === 'failed' ? null : (
              <Button busy={view.busy} onClick={() => actor.send({ type: 'SUBMIT' })}>
                {t`Record the decision`}
              </Button>
            )}
            {back}
            {cancel}
          </div>
        </div>
      );
    case 'done':
      return (
        <Alert tone="success" title={t`The decision was recorded`}>
          {view.customerVerified ? <p>{t`The customer is verified now.`}</p> : null}
        </Alert>
      );
    case 'canceled':
      return <p role="status">{t`No decision was made.`}</p>;
  }
}
