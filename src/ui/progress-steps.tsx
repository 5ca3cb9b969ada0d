import type { ReactNode } from 'react';
import { CheckIcon } from './icons-core.tsx';

export interface ProgressStep {
  id: string;
  label: ReactNode;
}

export interface ProgressStepsProps {
  /** what is progressing, for screen readers ("Your card's production") */
  label: string;
  steps: readonly ProgressStep[];
  /** the id of the step reached now; the ones before it are done */
  current: string;
  /** read after a finished step's label by screen readers ("done") */
  doneText: string;
}

/**
 * Where something is along fixed steps (a card being made and shipped): an ordered list, the steps
 * before the current one marked done, the current one `aria-current="step"`. A row on wide
 * screens, a column on a phone (components.css).
 */
export function ProgressSteps({ label, steps, current, doneText }: ProgressStepsProps) {
  const reached = steps.findIndex((s) => s.id === current);
  return (
    <ol className="progress-steps" aria-label={label}>
      {steps.map((step, index) => {
        const state = index < reached ? 'done' : index === reached ? 'current' : 'todo';
        return (
          <li key={step.id} className={`progress-step progress-step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="progress-step-mark" aria-hidden="true">
              {state === 'done' ? <CheckIcon /> : index + 1}
            </span>
            <span className="progress-step-label">
              {step.label}
              {state === 'done' ? <span className="visually-hidden"> ({doneText})</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
