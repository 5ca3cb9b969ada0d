/**
 * `npm run diagrams`: one Mermaid stateDiagram-v2 per machine into docs/<machine>.md, generated
 * from the machine definitions (states, nested and parallel states, transitions with event and
 * guard names), so auditors read the same chart the app runs. tests/unit/diagrams.test.ts fails
 * when a committed diagram differs from what this would write now.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine, StateNode } from 'xstate';
import { loginMachine } from '../machines/login/login.machine.ts';
import { sessionMachine } from '../machines/session/session.machine.ts';
import { startPageMachine } from '../machines/start-page/start-page.machine.ts';
import { twoStepMachine } from '../machines/two-step/two-step.machine.ts';
import { recoveryCodesMachine } from '../machines/recovery-codes/recovery-codes.machine.ts';
import { ssoMachine } from '../machines/sso/sso.machine.ts';
import { registrationMachine } from '../machines/registration/registration.machine.ts';
import { activationMachine } from '../machines/activation/activation.machine.ts';
import { accountRecoveryMachine } from '../machines/account-recovery/account-recovery.machine.ts';
import { passwordChangeMachine } from '../machines/password-change/password-change.machine.ts';
import { deviceCompanionMachine } from '../machines/device-companion/device-companion.machine.ts';
import { linkDeviceMachine } from '../machines/link-device/link-device.machine.ts';
import { transferMachine } from '../machines/transfer/transfer.machine.ts';
import { approvalMachine } from '../machines/approval/approval.machine.ts';
import { historyExportMachine } from '../machines/history-export/history-export.machine.ts';
import { verificationStatusMachine } from '../machines/verification-status/verification-status.machine.ts';
import { documentUploadMachine } from '../machines/document-upload/document-upload.machine.ts';
import { adminReviewMachine } from '../machines/admin-review/admin-review.machine.ts';
import { codeConfirmMachine } from '../machines/code-confirm/code-confirm.machine.ts';
import { addressEditMachine } from '../machines/address-edit/address-edit.machine.ts';
import { confirmActionMachine } from '../machines/confirm-action/confirm-action.machine.ts';
import { openAccountMachine } from '../machines/open-account/open-account.machine.ts';
import { massTransferMachine } from '../machines/mass-transfer/mass-transfer.machine.ts';
import { globalPayBatchMachine } from '../machines/global-pay-batch/global-pay-batch.machine.ts';
import { globalPayeeMachine } from '../machines/global-payee/global-payee.machine.ts';
import { cardSecretMachine } from '../machines/card-secret/card-secret.machine.ts';
import { cardPinChangeMachine } from '../machines/card-pin-change/card-pin-change.machine.ts';
import { cardActivationMachine } from '../machines/card-activation/card-activation.machine.ts';
import { eSignatureMachine } from '../machines/e-signature/e-signature.machine.ts';
import { businessSelfCertificationMachine } from '../machines/business-self-certification/business-self-certification.machine.ts';
import { personalSelfCertificationMachine } from '../machines/personal-self-certification/personal-self-certification.machine.ts';
import { cardApplicationMachine } from '../machines/card-application/card-application.machine.ts';
import { businessRegistrationMachine } from '../machines/business-registration/business-registration.machine.ts';
import { businessDecisionMachine } from '../machines/business-approval/business-approval.machine.ts';
import { contractMachine } from '../machines/contract/contract.machine.ts';
import { contractCreateMachine } from '../machines/contract-create/contract-create.machine.ts';
import { ticketMachine } from '../machines/ticket/ticket.machine.ts';
import { newTicketMachine } from '../machines/new-ticket/new-ticket.machine.ts';
import { eventLabel, listTransitions } from './machine-graph.ts';

export { eventLabel };

type AnyNode = StateNode<any, any>;

export const diagramMachines: { file: string; title: string; machine: AnyStateMachine; source: string }[] = [
  { file: 'session', title: 'Session', machine: sessionMachine, source: 'machines/session/session.machine.ts' },
  { file: 'login', title: 'Sign-in', machine: loginMachine, source: 'machines/login/login.machine.ts' },
  { file: 'start-page', title: 'Post-login start page', machine: startPageMachine, source: 'machines/start-page/start-page.machine.ts' },
  { file: 'two-step', title: 'Two-step verification settings', machine: twoStepMachine, source: 'machines/two-step/two-step.machine.ts' },
  { file: 'recovery-codes', title: 'New recovery codes (settings)', machine: recoveryCodesMachine, source: 'machines/recovery-codes/recovery-codes.machine.ts' },
  { file: 'sso', title: 'Single sign-on consent', machine: ssoMachine, source: 'machines/sso/sso.machine.ts' },
  { file: 'device-companion', title: 'Device companion (approvals on a linked phone)', machine: deviceCompanionMachine, source: 'machines/device-companion/device-companion.machine.ts' },
  { file: 'link-device', title: 'Link a phone (settings and /scp)', machine: linkDeviceMachine, source: 'machines/link-device/link-device.machine.ts' },
  { file: 'registration', title: 'Personal registration', machine: registrationMachine, source: 'machines/registration/registration.machine.ts' },
  { file: 'business-registration', title: 'Business registration wizard (/register/business)', machine: businessRegistrationMachine, source: 'machines/business-registration/business-registration.machine.ts' },
  { file: 'activation', title: 'Account activation', machine: activationMachine, source: 'machines/activation/activation.machine.ts' },
  { file: 'account-recovery', title: 'Account recovery', machine: accountRecoveryMachine, source: 'machines/account-recovery/account-recovery.machine.ts' },
  { file: 'password-change', title: 'Password change (settings)', machine: passwordChangeMachine, source: 'machines/password-change/password-change.machine.ts' },
  { file: 'transfer', title: 'Transfer (every kind: own accounts, p2p)', machine: transferMachine, source: 'machines/transfer/transfer.machine.ts' },
  { file: 'business-decision', title: 'A checker approves or declines a company’s payments (/transfer/approved)', machine: businessDecisionMachine, source: 'machines/business-approval/business-approval.machine.ts' },
  { file: 'mass-transfer', title: 'Mass transfer (a batch from a CSV file or pasted lines)', machine: massTransferMachine, source: 'machines/mass-transfer/mass-transfer.machine.ts' },
  { file: 'global-pay-batch', title: 'Global pay: a batch to people without an account (sender)', machine: globalPayBatchMachine, source: 'machines/global-pay-batch/global-pay-batch.machine.ts' },
  { file: 'global-payee', title: 'Global pay: the payee takes the money (/receive)', machine: globalPayeeMachine, source: 'machines/global-payee/global-payee.machine.ts' },
  { file: 'contract', title: 'A revenue-split contract’s life (/revenue-split/{contractId})', machine: contractMachine, source: 'machines/contract/contract.machine.ts' },
  { file: 'contract-create', title: 'Create a revenue-split contract (/revenue-split/new)', machine: contractCreateMachine, source: 'machines/contract-create/contract-create.machine.ts' },
  { file: 'ticket', title: 'A support ticket’s life, for the customer and the agent (/messages, /admin-support)', machine: ticketMachine, source: 'machines/ticket/ticket.machine.ts' },
  { file: 'new-ticket', title: 'Open a support ticket with attachments (/messages)', machine: newTicketMachine, source: 'machines/new-ticket/new-ticket.machine.ts' },
  { file: 'approval', title: 'Transfer approval (sms, otp, approval code, push)', machine: approvalMachine, source: 'machines/approval/approval.machine.ts' },
  { file: 'history-export', title: 'Transaction history CSV export', machine: historyExportMachine, source: 'machines/history-export/history-export.machine.ts' },
  { file: 'verification-status', title: 'Account verification status (document 1 §4)', machine: verificationStatusMachine, source: 'machines/verification-status/verification-status.machine.ts' },
  { file: 'document-upload', title: 'Document upload (one requirement)', machine: documentUploadMachine, source: 'machines/document-upload/document-upload.machine.ts' },
  { file: 'admin-review', title: "Administrator's decision on an uploaded document or identity job", machine: adminReviewMachine, source: 'machines/admin-review/admin-review.machine.ts' },
  { file: 'code-confirm', title: 'Confirm a phone or an e-mail address with a code (profile)', machine: codeConfirmMachine, source: 'machines/code-confirm/code-confirm.machine.ts' },
  { file: 'address-edit', title: 'Create or replace an address with its documents (profile)', machine: addressEditMachine, source: 'machines/address-edit/address-edit.machine.ts' },
  { file: 'open-account', title: 'Open an account or a crypto wallet', machine: openAccountMachine, source: 'machines/open-account/open-account.machine.ts' },
  { file: 'confirm-action', title: 'Confirm, then act (cancel a transfer, stop a pre-approved payment)', machine: confirmActionMachine, source: 'machines/confirm-action/confirm-action.machine.ts' },
  { file: 'card-secret', title: "A card's PIN, number and CVV shown after a fresh approval (/card/{accountId}/pin/)", machine: cardSecretMachine, source: 'machines/card-secret/card-secret.machine.ts' },
  { file: 'card-pin-change', title: "Change a card's PIN", machine: cardPinChangeMachine, source: 'machines/card-pin-change/card-pin-change.machine.ts' },
  { file: 'card-activation', title: 'Activate a physical card (its first PIN shown once)', machine: cardActivationMachine, source: 'machines/card-activation/card-activation.machine.ts' },
  { file: 'card-application', title: 'Apply for a card (/add-card)', machine: cardApplicationMachine, source: 'machines/card-application/card-application.machine.ts' },
  { file: 'e-signature', title: 'Sign a document on the built-in signing page (/e-sign/{token})', machine: eSignatureMachine, source: 'machines/e-signature/e-signature.machine.ts' },
  {
    file: 'business-self-certification',
    title: "The company's tax self-certification (/self-certification-business)",
    machine: businessSelfCertificationMachine,
    source: 'machines/business-self-certification/business-self-certification.machine.ts',
  },
  {
    file: 'personal-self-certification',
    title: 'A person’s tax self-certification (/self-certification, /self-certification-representative)',
    machine: personalSelfCertificationMachine,
    source: 'machines/personal-self-certification/personal-self-certification.machine.ts',
  },
];

/** Mermaid ids may not contain dots. */
const mid = (id: string) => id.replace(/[^A-Za-z0-9_]/g, '_');

function renderNode(node: AnyNode, indent: string, lines: string[]): void {
  const children = Object.values(node.states) as AnyNode[];
  for (const child of children) {
    const id = mid(child.id);
    const grandChildren = Object.values(child.states) as AnyNode[];
    if (grandChildren.length === 0) {
      lines.push(`${indent}state "${child.key}" as ${id}`);
      continue;
    }
    lines.push(`${indent}state "${child.key}" as ${id} {`);
    if (child.type === 'parallel') {
      grandChildren.forEach((region, i) => {
        if (i > 0) lines.push(`${indent}  --`);
        // An empty region (`state x { }`) makes Mermaid fail ("No such shape: roundedWithTitle"):
        // a region without states of its own is drawn as a plain state.
        if (Object.keys(region.states).length === 0) {
          lines.push(`${indent}  state "${region.key}" as ${mid(region.id)}`);
          return;
        }
        lines.push(`${indent}  state "${region.key}" as ${mid(region.id)} {`);
        renderInitial(region, `${indent}    `, lines);
        renderNode(region, `${indent}    `, lines);
        lines.push(`${indent}  }`);
      });
    } else {
      renderInitial(child, `${indent}  `, lines);
      renderNode(child, `${indent}  `, lines);
    }
    lines.push(`${indent}}`);
  }
}

function renderInitial(node: AnyNode, indent: string, lines: string[]): void {
  if (node.type !== 'compound') return;
  for (const target of node.initial?.target ?? []) lines.push(`${indent}[*] --> ${mid(target.id)}`);
}

export function renderMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  renderInitial(machine.root as AnyNode, '  ', lines);
  renderNode(machine.root as AnyNode, '  ', lines);
  // One edge per source and target, its transitions' labels one under the other: Mermaid draws
  // parallel edges' labels on top of each other (the verification-status chart's `always` fan).
  const edges = new Map<string, { from: string; to: string; labels: string[] }>();
  for (const t of listTransitions(machine)) {
    // The root's own transitions apply in every state: listed under the diagram instead.
    if (t.sourceId === machine.root.id) continue;
    // An eventless transition is named by its guard alone (the fan of the verification-status chart).
    const label = t.eventType === 'always' && t.guard ? `[${t.guard}]` : `${eventLabel(t.eventType)}${t.guard ? ` [${t.guard}]` : ''}`;
    // A transition without a target only runs actions: drawn as a loop on its state.
    const targets = t.targetIds.length > 0 ? t.targetIds : [t.sourceId];
    for (const target of targets) {
      const key = `${t.sourceId} ${target}`;
      const edge = edges.get(key) ?? { from: t.sourceId, to: target, labels: [] };
      if (!edge.labels.includes(label)) edge.labels.push(label);
      edges.set(key, edge);
    }
  }
  for (const { from, to, labels } of edges.values()) {
    // One transition: its guard on its own line under the event keeps the label narrow; several:
    // one line each.
    const text = labels.length === 1 ? (labels[0] as string).replace(' [', '<br/>[') : labels.join('<br/>');
    lines.push(`  ${mid(from)} --> ${mid(to)}: ${text}`);
  }
  const finals = [] as string[];
  const walk = (node: AnyNode) => {
    if (node.type === 'final') finals.push(`  ${mid(node.id)} --> [*]`);
    for (const child of Object.values(node.states) as AnyNode[]) walk(child);
  };
  walk(machine.root as AnyNode);
  return [...lines, ...finals].join('\n');
}

export function renderDoc(entry: (typeof diagramMachines)[number]): string {
  const anyState = listTransitions(entry.machine)
    .filter((t) => t.sourceId === entry.machine.root.id)
    .map((t) => `- \`${eventLabel(t.eventType)}\`${t.guard ? ` when \`${t.guard}\`` : ''}${t.targetIds.length ? ` -> ${t.targetIds.join(', ')}` : ' (updates the context, stays)'}`);
  return [
    `# ${entry.title} statechart`,
    '',
    `Generated by \`npm run diagrams\` from \`${entry.source}\`; do not edit by hand.`,
    'Labels are `EVENT [guard]` (several transitions between the same two states share one edge, a line each);',
    'a `[guard]` alone or `always` marks an eventless transition, taken as soon as its guard holds (in the order listed);',
    '`done x` / `error x` the result of the invoked actor `x`, `after d` the delay named `d`.',
    '',
    '```mermaid',
    renderMermaid(entry.machine),
    '```',
    '',
    ...(anyState.length ? ['Handled in every state:', '', ...anyState, ''] : []),
  ].join('\n');
}

export const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'docs');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(docsDir, { recursive: true });
  for (const entry of diagramMachines) {
    const path = resolve(docsDir, `${entry.file}.md`);
    writeFileSync(path, renderDoc(entry));
    console.log(`wrote ${path}`);
  }
}
