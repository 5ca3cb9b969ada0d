/** Snapshot -> view facts for opening an account. */
import type { SnapshotFrom } from 'xstate';
import type { OpenAccountMachine } from './open-account.machine.ts';

export type OpenAccountSnapshot = SnapshotFrom<OpenAccountMachine>;
export type OpenAccountStep = 'nothingToOpen' | 'choosing' | 'confirming' | 'opening' | 'failed' | 'done';

export function selectOpenAccountView(s: OpenAccountSnapshot) {
  const step: OpenAccountStep = s.matches('nothingToOpen')
    ? 'nothingToOpen'
    : s.matches('choosing')
      ? 'choosing'
      : s.matches('confirming')
        ? 'confirming'
        : s.matches('opening')
          ? 'opening'
          : s.matches('failed')
            ? 'failed'
            : 'done';
  return {
    step,
    choices: s.context.choices,
    selected: s.context.selected,
    error: s.context.error,
    // the flow's output: what it reports once done is what the chart hands out as its result
    opened: s.status === 'done' ? (s.output ?? null) : null,
    busy: s.hasTag('busy'),
  };
}

export type OpenAccountView = ReturnType<typeof selectOpenAccountView>;
