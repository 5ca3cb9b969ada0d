/** Snapshot -> view facts for the mass transfer page (machines/mass-transfer). */
import type { SnapshotFrom } from 'xstate';
import type { MassError, MassTransferMachine } from './mass-transfer.machine.ts';

export type MassSnapshot = SnapshotFrom<MassTransferMachine>;
export type MassStep = 'loading' | 'loadFailed' | 'editing' | 'previewing' | 'approving' | 'paying' | 'done' | 'failed';

/** The steps on the confirm route (document 2 §2 /transfer/mass/p2p/confirm, /transfer/external/mass/confirm). */
export const CONFIRM_STEPS: readonly MassStep[] = ['previewing', 'approving', 'paying', 'done', 'failed'];

export function selectMassStep(s: MassSnapshot): MassStep {
  if (s.matches('loading')) return 'loading';
  if (s.matches('loadFailed')) return 'loadFailed';
  if (s.matches('editing') || s.matches('checking')) return 'editing';
  if (s.matches('previewing') || s.matches('confirming')) return 'previewing';
  if (s.matches('approving')) return 'approving';
  if (s.matches('paying')) return 'paying';
  if (s.matches('done')) return 'done';
  return 'failed';
}

export interface RowErrors {
  line: number;
  /** the column each error names ('' for the whole line) */
  errors: { column: string; error: MassError }[];
}

/**
 * The platform's errors split: by line (rows.<line>.<column>, in line order), for the whole file,
 * for the account.
 */
export function splitErrors(errors: readonly MassError[]): { rows: RowErrors[]; file: MassError[]; account: MassError[]; other: MassError[] } {
  const byLine = new Map<number, RowErrors>();
  const file: MassError[] = [];
  const account: MassError[] = [];
  const other: MassError[] = [];
  for (const error of errors) {
    const match = /^rows\.(\d+)(?:\.(.+))?$/.exec(error.param);
    if (match) {
      const line = Number(match[1]);
      const entry = byLine.get(line) ?? { line, errors: [] };
      entry.errors.push({ column: match[2] ?? '', error });
      byLine.set(line, entry);
    } else if (error.param === 'file' || error.param === 'text') file.push(error);
    else if (error.param === 'accountId') account.push(error);
    else other.push(error);
  }
  return { rows: [...byLine.values()].sort((a, b) => a.line - b.line), file, account, other };
}

export function selectMassView(s: MassSnapshot) {
  const c = s.context;
  return {
    step: selectMassStep(s),
    kind: c.kind,
    busy: s.hasTag('busy'),
    accounts: c.accounts,
    form: c.form,
    missing: c.missing,
    errors: splitErrors(c.errors),
    preview: c.preview,
    created: c.created,
    unanswered: c.unanswered,
    batch: c.batch,
    failure: c.failure,
    loadFailure: c.loadFailure,
    outcome: c.outcome,
    canceled: c.canceled,
    /** the approval machine's actor while approving */
    approval: s.children.approval ?? null,
  };
}
export type MassView = ReturnType<typeof selectMassView>;
