/**
 * The mass transfer calls (api/mass.ts): the uploads ask the mass service (mass.service.ts) in the
 * call's one transaction after the batch kind's permission flags; the reads (batches.ts: the mass
 * and the global-pay batches) answer the acting customer's batches only (another customer's batch id answers ENOA, as an unknown one does).
 */
import type { massMethods } from '../../../api/mass.ts';
import { MASS_PAYOUT_METHODS, type MassKind } from '../../../api/mass.ts';
import { vf, VfCode } from '../../../api/errors.ts';
import type { Tx } from '../../db/types.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { listBatches, viewBatch } from './batches.ts';
import { payoutColumns, createMassService } from './mass.service.ts';
import { MASS_OPERATION_FLAGS, requireFlags } from './permissions.ts';
import { createTransferService, type TransferActor, type TransferService } from './transfers.service.ts';

const txOf = (ctx: MethodContext): Tx => ctx.db as unknown as Tx;

function actorOf(ctx: MethodContext): TransferActor {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { userId: ctx.caller.userId, customerId: ctx.customerId, ip: ctx.ip, publish: ctx.publish, audit: ctx.audit };
}

/** The uploaded CSV: exactly one file part named `file`. */
function fileOf(ctx: MethodContext): { name: string; content: Uint8Array } {
  const files = ctx.files.filter((f) => f.fieldName === 'file');
  if (files.length !== 1 || ctx.files.length !== 1) {
    throw new MethodFailure('VF', 'Invalid request', [ctx.files.length > 1 ? vf('file', VfCode.fileDuplicate) : vf('file', VfCode.required)]);
  }
  return { name: files[0]!.fileName || 'batch.csv', content: files[0]!.content };
}

/** Each kind's sample: the header and one row a person can overwrite. */
export function sampleOf(kind: MassKind): { kind: MassKind; fileName: string; content: string } {
  if (kind === 'p2p') return { kind, fileName: 'mass-p2p-sample.csv', content: 'email,amount,note\r\nfriend@example.com,10.00,Lunch\r\n' };
  const columns = payoutColumns(kind);
  const header = [...columns.required, ...columns.optional, ...columns.payee];
  const example: Record<string, Record<string, string>> = {
    wire: { countryCode: 'DE', amount: '100.00', reference: 'Invoice 1001', beneficiaryName: 'Erika Mustermann', beneficiaryAddress: 'Hauptstrasse 1, Berlin', iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX' },
    eft: { countryCode: 'DE', amount: '100.00', reference: 'Invoice 1001', beneficiaryName: 'Erika Mustermann', iban: 'DE89370400440532013000' },
    oct: { countryCode: 'US', amount: '25.00', reference: 'Refund 77', cardHolderName: 'Jane Doe', cardNumber: '4111111111111111' },
    digital: { countryCode: 'US', amount: '0.01', reference: 'Payout 5', walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  };
  const quote = (cell: string) => (/[",;\s]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return { kind, fileName: `mass-${kind}-sample.csv`, content: `${header.join(',')}\r\n${header.map((name) => quote(example[kind]![name] ?? '')).join(',')}\r\n` };
}

export function createMassHandlers(transfers: TransferService): HandlerTable<typeof massMethods> {
  const mass = createMassService(transfers);
  return {
    async massP2pFile(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...MASS_OPERATION_FLAGS.p2p);
      const file = fileOf(ctx);
      return mass.upload(txOf(ctx), actor, { kind: 'p2p', fromAccountId: input.accountId, fileName: file.name, content: file.content, preview: input.preview === true });
    },
    async massP2pText(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...MASS_OPERATION_FLAGS.p2p);
      if (input.text.trim() === '') throw new MethodFailure('VF', 'Invalid request', [vf('text', VfCode.required)]);
      return mass.upload(txOf(ctx), actor, { kind: 'p2p', fromAccountId: input.accountId, fileName: 'pasted.csv', content: input.text, preview: input.preview === true });
    },
    async massExternalFile(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...MASS_OPERATION_FLAGS[input.paymentMethod]);
      const file = fileOf(ctx);
      return mass.upload(txOf(ctx), actor, { kind: input.paymentMethod, fromAccountId: input.accountId, fileName: file.name, content: file.content, preview: input.preview === true });
    },
    async massSampleLinkList() {
      return { samples: (['p2p', ...MASS_PAYOUT_METHODS] as const).map(sampleOf) };
    },
    async batchTransferList(input, ctx) {
      const actor = actorOf(ctx);
      const { batches, total } = await listBatches(ctx.db, actor.customerId, input, transfers.now());
      return { batchTransfer: { transfer: batches }, total };
    },
    async batchFileView(input, ctx) {
      const actor = actorOf(ctx);
      const view = await viewBatch(ctx.db, actor.customerId, input.id, input.kind, transfers.now());
      if (!view) throw new MethodFailure('ENOA', 'Unknown batch');
      return view;
    },
  };
}

/** Without the app's job queue (the method table's defaults): an upload's preview works, a batch answers UE. */
export const massHandlers = createMassHandlers(createTransferService({ now: Date.now, approvals: null, publisher: null }));
