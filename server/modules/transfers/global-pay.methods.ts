/**
 * The global-pay calls (api/global-pay.ts): the sender's ask the global-pay service
 * (global-pay.service.ts) in the call's one transaction after the flags (mass.global for a batch
 * from a file, others.global for one payment); another customer's batch answers ENOA, as an
 * unknown one does. The payee's calls (public) authenticate the payment with its secret first,
 * every time; the reference helpers answer as the signed-in external calls do
 * (external.methods.ts), the payee's forms limited to the methods the sender allowed.
 */
import type { globalPayMethods } from '../../../api/global-pay.ts';
import { GLOBAL_PAY_LAST_WITHDRAWALS } from '../../../api/global-pay.ts';
import { vf, VfCode } from '../../../api/errors.ts';
import { binOf, cardBrand, isBlockedBin, normaliseCardNumber } from '../../../api/payees/cards.ts';
import { availableMethods, OCT_CARD_BRANDS } from '../../../api/payees/methods.ts';
import type { Tx } from '../../db/types.ts';
import { countryExists, readCountries } from '../dictionaries/dictionaries.service.ts';
import { DictionaryKey } from '../dictionaries/data/types.ts';
import { externalHandlers, instantInfo, readBlockedBins } from '../external/external.methods.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { createGlobalPayService, type GlobalPayService, type PaymentInput } from './global-pay.service.ts';
import { GLOBAL_PAY_FLAGS, requireFlags } from './permissions.ts';
import { createTransferService, type TransferActor } from './transfers.service.ts';
import { DEFAULT_RECOVERY_OPTIONS } from '../recovery/recovery.methods.ts';

const txOf = (ctx: MethodContext): Tx => ctx.db as unknown as Tx;

function actorOf(ctx: MethodContext): TransferActor {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { userId: ctx.caller.userId, customerId: ctx.customerId, ip: ctx.ip, publish: ctx.publish, audit: ctx.audit };
}

/** The uploaded CSV: exactly one file part named `file`. */
function fileOf(ctx: MethodContext): Uint8Array {
  const files = ctx.files.filter((f) => f.fieldName === 'file');
  if (files.length !== 1 || ctx.files.length !== 1) {
    throw new MethodFailure('VF', 'Invalid request', [ctx.files.length > 1 ? vf('file', VfCode.fileDuplicate) : vf('file', VfCode.required)]);
  }
  return files[0]!.content;
}

/** The flags of the batch's kind (a file's or a single payment's). */
async function batchFlags(ctx: MethodContext, service: GlobalPayService, batchId: number): Promise<void> {
  const batch = await service.ownBatch(ctx.db, actorOf(ctx), batchId);
  await requireFlags(ctx, ...GLOBAL_PAY_FLAGS[batch.source]);
}

export function createGlobalPayHandlers(service: GlobalPayService): HandlerTable<typeof globalPayMethods> {
  const edit = async (ctx: MethodContext, batchId: number, changes: Parameters<GlobalPayService['edit']>[3]) => {
    const actor = actorOf(ctx);
    await batchFlags(ctx, service, batchId);
    return service.edit(txOf(ctx), actor, batchId, changes);
  };
  /** Every payee call: the payment and its secret, checked (kept failures: the attempt counts). */
  const payee = (ctx: MethodContext, input: { paymentId: number; secret: string }) => service.authenticate(ctx.db, input.paymentId, input.secret, ctx.ip);

  return {
    // ---- sender ---------------------------------------------------------------------------------
    async globalPayUpload(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...GLOBAL_PAY_FLAGS.file);
      return service.upload(txOf(ctx), actor, { accountId: input.accountId, batchName: input.batchName, ignoreIdenticalBatch: input.ignoreIdenticalBatch === true, content: fileOf(ctx) });
    },
    async globalPayBatchGet(input, ctx) {
      const batch = await service.ownBatch(ctx.db, actorOf(ctx), input.batchId);
      return service.viewBatch(ctx.db, batch);
    },
    async globalPayBatchStatus(input, ctx) {
      const batch = await service.ownBatch(ctx.db, actorOf(ctx), input.batchId);
      const view = (await service.viewBatch(ctx.db, batch)).batch;
      const counts: Record<string, number> = {};
      for (const p of view.payments) counts[p.status] = (counts[p.status] ?? 0) + 1;
      return { batchId: view.batchId, status: view.status, transactionId: view.transactionId, count: view.count, counts };
    },
    async globalPayUpdatePayments(input, ctx) {
      return edit(ctx, input.batchId, {
        adds: (input.adds ?? []).map((p, i) => ({ input: p as PaymentInput, param: `adds.${i}` })),
        updates: (input.updates ?? []).map((p, i) => ({ id: p.id, input: p as PaymentInput, param: `updates.${i}` })),
        deletes: (input.deletes ?? []).map((id, i) => ({ id, param: `deletes.${i}` })),
        restores: (input.restores ?? []).map((id, i) => ({ id, param: `restores.${i}` })),
      });
    },
    async globalPayBatchAdd(input, ctx) {
      return edit(ctx, input.batchId, { adds: [{ input: input.payment as PaymentInput, param: 'payment' }] });
    },
    async globalPayBatchUpdate(input, ctx) {
      return edit(ctx, input.batchId, { updates: [{ id: input.payment.id, input: input.payment as PaymentInput, param: 'payment' }] });
    },
    async globalPayBatchUpdateFull(input, ctx) {
      return edit(ctx, input.batchId, { updates: [{ id: input.payment.id, input: input.payment as PaymentInput, param: 'payment', methods: input.paymentMethods, feeShare: input.feeShare }] });
    },
    async globalPayBatchRemove(input, ctx) {
      return edit(ctx, input.batchId, { deletes: [{ id: input.id, param: 'id' }] });
    },
    async globalPayBatchRestore(input, ctx) {
      return edit(ctx, input.batchId, { restores: [{ id: input.id, param: 'id' }] });
    },
    async globalPaySetFeeSide(input, ctx) {
      return edit(ctx, input.batchId, { feeShare: { ids: input.list.map((id, i) => ({ id, param: `list.${i}` })), feeShare: input.feeShare } });
    },
    async globalPaySetMethodForbidden(input, ctx) {
      return edit(ctx, input.batchId, { forbidden: { ids: input.list.map((id, i) => ({ id, param: `list.${i}` })), forbidden: input.forbidden, method: input.paymentMethod } });
    },
    async globalPayCountryMethods(input, ctx) {
      actorOf(ctx);
      if (!(await countryExists(ctx.db, input.countryCode))) throw new MethodFailure('VF', 'Invalid request', [vf('countryCode', VfCode.notCountry)]);
      return { methods: availableMethods(input.countryCode, input.currencyCode) };
    },
    async globalPayBatchSubmit(input, ctx) {
      const actor = actorOf(ctx);
      await batchFlags(ctx, service, input.batchId);
      return service.submit(txOf(ctx), actor, input.batchId);
    },
    async globalPayBatchReject(input, ctx) {
      const actor = actorOf(ctx);
      await batchFlags(ctx, service, input.batchId);
      return service.reject(txOf(ctx), actor, input.batchId);
    },
    async globalPayBatchCancel(input, ctx) {
      const actor = actorOf(ctx);
      await batchFlags(ctx, service, input.batchId);
      return service.cancel(txOf(ctx), actor, input.batchId);
    },
    async globalPayApprove(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...GLOBAL_PAY_FLAGS.p2p);
      return service.approveOperation(txOf(ctx), actor, input.operationId, input.approvalCode, 'p2p');
    },
    async globalPayApproveBatch(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...GLOBAL_PAY_FLAGS.file);
      return service.approveOperation(txOf(ctx), actor, input.operationId, input.approvalCode, 'file');
    },
    async globalPayP2pMethods(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...GLOBAL_PAY_FLAGS.p2p);
      const meta = await service.p2pMeta(ctx.db, actor, { accountId: input.accountId, countryCode: input.countryCode, amount: '0' });
      return { currency: meta.currency, methods: meta.methods.map((m) => m.name) };
    },
    async globalPayP2pMeta(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...GLOBAL_PAY_FLAGS.p2p);
      return service.p2pMeta(ctx.db, actor, input);
    },
    async globalPayP2pSubmit(input, ctx) {
      const actor = actorOf(ctx);
      await requireFlags(ctx, ...GLOBAL_PAY_FLAGS.p2p);
      return service.submitP2p(txOf(ctx), actor, input);
    },

    // ---- payee ----------------------------------------------------------------------------------
    async globalPaymentDetails(input, ctx) {
      const found = await payee(ctx, input);
      return service.details(ctx.db, found.payment, found.batch);
    },
    async globalPaymentCountries(input, ctx) {
      const found = await payee(ctx, input);
      const countries = await readCountries(ctx.db, DictionaryKey.countries, ctx.lang);
      return { countries: countries.filter((c) => service.payeeMethods(found.payment, found.batch, c.code).length > 0).map((c) => ({ code: c.code, name: c.name })) };
    },
    async globalPaymentMethods(input, ctx) {
      const found = await payee(ctx, input);
      return { methods: service.payeeMethods(found.payment, found.batch, input.countryCode) };
    },
    async globalPaymentMeta(input, ctx) {
      const found = await payee(ctx, input);
      return service.meta(ctx.db, found.payment, found.batch, input);
    },
    async globalPaymentLastWithdrawals(input, ctx) {
      const found = await payee(ctx, input);
      return { withdrawals: await service.withdrawals(ctx.db, found, { limit: input.limit ?? GLOBAL_PAY_LAST_WITHDRAWALS }) };
    },
    async globalPaymentWithdrawalDetails(input, ctx) {
      const found = await payee(ctx, input);
      const [withdrawal] = await service.withdrawals(ctx.db, found, { limit: 1, id: input.withdrawalId ?? input.paymentId });
      if (!withdrawal) throw new MethodFailure('TA1', 'No such withdrawal');
      return { withdrawal };
    },
    async globalPaymentBinBlacklist(input, ctx) {
      await payee(ctx, input);
      return { bins: await readBlockedBins(ctx.db) };
    },
    async globalPaymentInstantDetails(input, ctx) {
      await payee(ctx, input);
      return { instantInfo: instantInfo(input) };
    },
    async globalPaymentInstantBankList(input, ctx) {
      await payee(ctx, input);
      return externalHandlers.instantBankList({ countryCode: input.countryCode }, ctx);
    },
    async globalPaymentExtraParams(input, ctx) {
      const found = await payee(ctx, input);
      // a method the sender did not allow (or that does not go there) has no form
      if (!service.payeeMethods(found.payment, found.batch, input.countryCode).includes(input.paymentMethod)) return { params: [] };
      return externalHandlers.extraParams({ paymentMethod: input.paymentMethod, currencyCode: input.currencyCode, countryCode: input.countryCode }, ctx);
    },
    async globalPaymentBinLookup(input, ctx) {
      await payee(ctx, input);
      const digits = normaliseCardNumber(input.binNumber);
      if (!/^\d{6,}$/.test(digits)) throw new MethodFailure('VF', 'Invalid request', [vf('binNumber', VfCode.cardFormat)]);
      const bin = binOf(digits);
      const brand = cardBrand(digits.padEnd(16, '0'))?.brand ?? null;
      const blocked = isBlockedBin(digits, await readBlockedBins(ctx.db));
      return { bin, brand, blocked, supported: brand !== null && OCT_CARD_BRANDS.includes(brand) && !blocked };
    },
    async globalPaymentSwiftLookup(input, ctx) {
      await payee(ctx, input);
      return externalHandlers.swiftLookup({ swift: input.swift }, ctx);
    },
    async globalPaymentIbanLookup(input, ctx) {
      await payee(ctx, input);
      return externalHandlers.ibanLookup({ iban: input.iban }, ctx);
    },
    async globalPaymentSubmit(input, ctx) {
      const found = await payee(ctx, input);
      return service.payeeSubmit(txOf(ctx), found, input);
    },
    async globalPaymentApprove(input, ctx) {
      const found = await payee(ctx, input);
      return service.payeeApprove(txOf(ctx), found, input);
    },
    async globalPaymentResendCode(input, ctx) {
      const found = await payee(ctx, input);
      return service.resendCode(txOf(ctx), found, input.operationId);
    },
    async globalPaymentCancel(input, ctx) {
      const found = await payee(ctx, input);
      return service.refuse(txOf(ctx), found, ctx.publish);
    },
  };
}

/** Without the app's job queue (the method table's defaults): drafts and reads work; a submit answers UE. */
export const globalPayHandlers = createGlobalPayHandlers(
  createGlobalPayService({ transfers: createTransferService({ now: Date.now, approvals: null, publisher: null }), payouts: null, now: Date.now, publicUrl: DEFAULT_RECOVERY_OPTIONS.publicUrl }),
);

