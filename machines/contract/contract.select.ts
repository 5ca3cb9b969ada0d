/** Snapshot -> view facts for the contract's page (machines/contract). */
import type { SnapshotFrom } from 'xstate';
import type { ContractMachine } from './contract.machine.ts';
import { actionsFor, mayIdentify } from './contract.rules.ts';

export type ContractSnapshot = SnapshotFrom<ContractMachine>;

export function selectContractView(s: ContractSnapshot) {
  const c = s.context;
  const shown = s.matches('shown');
  const idle = s.matches({ shown: { action: 'idle' } });
  return {
    step: s.matches('loading') ? ('loading' as const) : s.matches('failed') ? ('failed' as const) : ('shown' as const),
    contract: c.contract,
    loadFailure: c.loadFailure,
    /** what the shared rules allow now, offered only while nothing else runs */
    actions: shown && idle ? actionsFor(c.contract, c.customerId, c.mayAct) : [],
    mayIdentify: shown && idle && mayIdentify(c.contract, c.customerId, c.mayAct),
    mayPdf: shown && idle,
    confirming: s.matches({ shown: { action: 'confirming' } }) || s.matches({ shown: { action: 'working' } }) ? c.pending : null,
    working: s.matches({ shown: { action: 'working' } }),
    signing: s.matches({ shown: { action: 'signing' } }),
    identifying: s.matches({ shown: { action: 'identifying' } }),
    pdfLoading: s.matches({ shown: { action: 'pdfLoading' } }),
    reloading: s.matches({ shown: { action: 'reloading' } }),
    leaveTo: s.matches({ shown: { action: 'leaving' } }) ? c.leaveTo : null,
    note: c.note,
    noteError: c.noteError,
    error: c.error,
    pdfUrl: c.pdfUrl,
    retryable: c.loadFailure?.code !== 'notFound',
  };
}

export type ContractView = ReturnType<typeof selectContractView>;
