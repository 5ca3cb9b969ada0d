/**
 * The cards area's routing rules (document 2 §2 "Cards routing", src/features/cards/card-routing.ts)
 * as tables: /cards, the two lists and the detail, for every mix of cards that changes the answer.
 */
import { describe, expect, it } from 'vitest';
import type { Account } from '../../api/accounts.ts';
import { cardDetailRoute, cardListRoute, cardsIndexRoute, cardsOfKind, isListedCard, parseCardAccountId, type CardRoute } from '../../src/features/cards/card-routing.ts';

type Facts = Pick<Account, 'accountId' | 'type' | 'subType' | 'accountStatusId' | 'cardIsVirtual'>;

const payment = (accountId: number): Facts => ({ accountId, type: 1001, subType: null, accountStatusId: 1, cardIsVirtual: null });
const physical = (accountId: number, accountStatusId = 2): Facts => ({ accountId, type: 2006, subType: 'PREPAID', accountStatusId, cardIsVirtual: false });
const virtual = (accountId: number, accountStatusId = 2): Facts => ({ accountId, type: 2100, subType: 'PREPAID', accountStatusId, cardIsVirtual: true });
const debit = (accountId: number): Facts => ({ accountId, type: 2135, subType: 'DEBIT', accountStatusId: 2, cardIsVirtual: false });
const CLOSED = 11;
const CANCELED = 4;

describe('which accounts are cards of the cards area', () => {
  it.each<[string, Facts, boolean]>([
    ['a payment account', payment(1), false],
    ['an active prepaid physical card', physical(2), true],
    ['a virtual card', virtual(3), true],
    ['a debit card', debit(4), true],
    ['a closed card (status 11)', physical(5, CLOSED), false],
    ['a canceled card (status 4): listed, marked', physical(6, CANCELED), true],
    ['a card type below the range (2005)', { ...physical(7), type: 2005 }, false],
    ['a card type above the range (2136)', { ...physical(8), type: 2136 }, false],
    ['a card type without a sub-type', { ...physical(9), subType: null }, false],
  ])('%s', (_, account, listed) => {
    expect(isListedCard(account)).toBe(listed);
  });

  it('sorts cards by kind: virtual when marked so, physical otherwise (debit cards are plastic)', () => {
    const all = [payment(1), physical(2), virtual(3), debit(4), { ...physical(5), cardIsVirtual: null }];
    expect(cardsOfKind(all, 'physical').map((a) => a.accountId)).toEqual([2, 4, 5]);
    expect(cardsOfKind(all, 'virtual').map((a) => a.accountId)).toEqual([3]);
  });
});

describe('/cards', () => {
  it.each<[string, Facts[], CardRoute]>([
    ['no account at all: stays (the empty state)', [], { to: 'stay' }],
    ['payment accounts only: stays', [payment(1)], { to: 'stay' }],
    ['only closed cards: stays', [physical(2, CLOSED), virtual(3, CLOSED)], { to: 'stay' }],
    ['a physical card: the physical list', [payment(1), physical(2)], { to: 'list', kind: 'physical' }],
    ['physical and virtual cards: the physical list first', [virtual(3), physical(2)], { to: 'list', kind: 'physical' }],
    ['virtual cards only: the virtual list', [payment(1), virtual(3)], { to: 'list', kind: 'virtual' }],
    ['a closed physical card and a virtual card: the virtual list', [physical(2, CLOSED), virtual(3)], { to: 'list', kind: 'virtual' }],
    ['a canceled physical card counts (not closed)', [physical(2, CANCELED), virtual(3)], { to: 'list', kind: 'physical' }],
    ['a debit card counts as physical', [debit(4), virtual(3)], { to: 'list', kind: 'physical' }],
  ])('%s', (_, accounts, route) => {
    expect(cardsIndexRoute(accounts)).toEqual(route);
  });
});

describe('/cards/physical and /cards/virtual', () => {
  it.each<[string, Facts[], 'physical' | 'virtual', CardRoute]>([
    ['one physical card, no virtual: its detail', [payment(1), physical(2)], 'physical', { to: 'detail', accountId: 2 }],
    ['one virtual card, no physical: its detail', [virtual(3)], 'virtual', { to: 'detail', accountId: 3 }],
    ['one physical and one virtual card: the physical list stays', [physical(2), virtual(3)], 'physical', { to: 'stay' }],
    ['one physical and one virtual card: the virtual list stays', [physical(2), virtual(3)], 'virtual', { to: 'stay' }],
    ['two physical cards: stays', [physical(2), physical(5)], 'physical', { to: 'stay' }],
    ['one physical card and a closed virtual one: its detail', [physical(2), virtual(3, CLOSED)], 'physical', { to: 'detail', accountId: 2 }],
    ['one physical card and a closed physical one: its detail', [physical(2), physical(5, CLOSED)], 'physical', { to: 'detail', accountId: 2 }],
    ['one physical card and a canceled one: stays (canceled cards are listed)', [physical(2), physical(5, CANCELED)], 'physical', { to: 'stay' }],
    ['no virtual card, one physical: the virtual list stays (empty)', [physical(2)], 'virtual', { to: 'stay' }],
    ['no card at all: stays', [], 'physical', { to: 'stay' }],
  ])('%s', (_, accounts, kind, route) => {
    expect(cardListRoute(accounts, kind)).toEqual(route);
  });
});

describe('/cards/{accountId}', () => {
  it.each<[string, Facts[], number, CardRoute]>([
    ['a listed card: stays', [physical(2), virtual(3)], 3, { to: 'stay' }],
    ['a canceled card: stays (not closed)', [physical(2, CANCELED)], 2, { to: 'stay' }],
    ['a debit card: stays', [debit(4)], 4, { to: 'stay' }],
    ['a closed card, several cards: the cards list', [physical(2, CLOSED), physical(5), virtual(3)], 2, { to: 'cards' }],
    ['a closed card, one other card: home', [physical(2, CLOSED), virtual(3)], 2, { to: 'home' }],
    ['a payment account, several cards: the cards list', [payment(1), physical(2), virtual(3)], 1, { to: 'cards' }],
    ['a payment account, no card: home', [payment(1)], 1, { to: 'home' }],
    ['an unknown id, several cards: the cards list', [physical(2), virtual(3)], 99, { to: 'cards' }],
    ['an unknown id, one card: home', [physical(2)], 99, { to: 'home' }],
    ['several cards, all but one closed: home', [physical(2, CLOSED), virtual(3, CLOSED), physical(5)], 99, { to: 'home' }],
  ])('%s', (_, accounts, accountId, route) => {
    expect(cardDetailRoute(accounts, accountId)).toEqual(route);
  });

  it.each<[string, number | null]>([
    ['12', 12],
    ['0', null],
    ['-3', null],
    ['1.5', null],
    ['abc', null],
    ['012', null],
    ['99999999999999999', null],
  ])('the path segment %s is the id %s', (raw, id) => {
    expect(parseCardAccountId(raw)).toBe(id);
  });
});
