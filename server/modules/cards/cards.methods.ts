/**
 * The card calls (api/cards.ts) on the card service (cards.service.ts); the two authorisation
 * lists are authorizations.methods.ts's. A mutation gets the endpoint's transaction as ctx.db.
 * Answers that carry a secret (cardActivate's first PIN, getPin) are answered once and never
 * stored: neither method is idempotent (api/idempotency.ts), so no stored answer keeps them, and
 * the endpoint logs no answer bodies.
 */
import type { cardMethods } from '../../../api/cards.ts';
import type { Db, Tx } from '../../db/types.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import type { TransferActor } from '../transfers/transfers.service.ts';
import { authorizationHandlers } from './authorizations.methods.ts';
import { createCardService, type CardService } from './cards.service.ts';
import type { CardIssuer } from './issuer.ts';

function actorOf(ctx: MethodContext): TransferActor {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { userId: ctx.caller.userId, customerId: ctx.customerId, ip: ctx.ip, publish: ctx.publish, audit: ctx.audit };
}
const txOf = (ctx: MethodContext): Tx => ctx.db as unknown as Tx;
const dbOf = (ctx: MethodContext): Db => ctx.db;

export function createCardHandlers(service: CardService): HandlerTable<typeof cardMethods> {
  return {
    ...authorizationHandlers,
    applyForCardInfo: (input, ctx) => service.applyForCardInfo(dbOf(ctx), actorOf(ctx).customerId, input.countryCode),
    cardApply: (input, ctx) => service.apply(txOf(ctx), actorOf(ctx), input),
    cardConfirmRequirements: (input, ctx) => service.confirmRequirements(dbOf(ctx), actorOf(ctx).customerId, input.accountId),
    cardConfirm: (input, ctx) => service.confirm(txOf(ctx), actorOf(ctx), input.accountId),
    cardPause: (input, ctx) => service.pause(txOf(ctx), actorOf(ctx), input.accountId),
    cardUnpause: (input, ctx) => service.unpause(txOf(ctx), actorOf(ctx), input.accountId),
    cardBlock: (input, ctx) => service.block(txOf(ctx), actorOf(ctx), input.accountId),
    cardReissue: (input, ctx) => service.reissue(txOf(ctx), actorOf(ctx), input.accountId, input.isExpressShipping),
    upgradeShipping: (input, ctx) => service.upgradeShipping(txOf(ctx), actorOf(ctx), input.accountId),
    setAlias: (input, ctx) => service.setAlias(txOf(ctx), actorOf(ctx), input.accountId, input.cardAliasName),
    cardActivationData: (input, ctx) => service.activationData(dbOf(ctx), actorOf(ctx).customerId, input.accountId),
    cardActivate: (input, ctx) => service.activate(txOf(ctx), actorOf(ctx), input),
    changePin: (input, ctx) => service.changePin(txOf(ctx), actorOf(ctx), input),
    showPin: (input, ctx) => service.showPin(txOf(ctx), actorOf(ctx), input.accountId, input.reveal ?? 'pin'),
    getPin: (input, ctx) => service.getPin(txOf(ctx), actorOf(ctx), input),
    binInfo: async (input, ctx) => (actorOf(ctx), service.binInfo(input.binNumber)),
    addressReplacementCompatibility: (input, ctx) => service.addressReplacementCompatibility(dbOf(ctx), actorOf(ctx).customerId, input.countryCode, input.oldAddressId),
  };
}

/** An issuer for the static method table only: the app replaces every card handler with ones on its configured issuer (app.ts). */
const unconfigured = (): never => {
  throw new MethodFailure('UE', 'The card issuer is not configured');
};
const noIssuer: CardIssuer = {
  name: 'none',
  issue: unconfigured,
  expedite: unconfigured,
  setPin: unconfigured,
  revealPin: unconfigured,
  revealCard: unconfigured,
  findCard: unconfigured,
};

export const cardHandlers = createCardHandlers(createCardService({ issuer: noIssuer, now: Date.now, queue: null, publisher: null, transfers: () => unconfigured() }));
