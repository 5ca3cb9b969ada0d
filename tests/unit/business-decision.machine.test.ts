/**
 * The checker's decision chart (machines/business-approval; issue 17 item 6) on its own, with its
 * actors provided: every transition taken once (a decision declined, approved at once, approved
 * after the checker's own approval, that approval given up or failed; refusals and no answer, the
 * same decision retried with the same idempotency key, a new decision with a new one; nothing sent
 * without a payment chosen). The view's side is tests/ui/business-approvals.test.tsx.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyActorRef } from 'xstate';
import { businessDecisionMachine, type DecideResult, type DecisionTarget } from '../../machines/business-approval/business-approval.machine.ts';
import { approvalMachine, type ApproveResult, type CancelResult } from '../../machines/approval/approval.machine.ts';

type DecideInput = { target: DecisionTarget; declined: boolean; idempotencyKey: string };

function run(answers: DecideResult[], approve: ApproveResult[] = []) {
  const calls: DecideInput[] = [];
  const codes: string[] = [];
  const logic = businessDecisionMachine.provide({
    actors: {
      decide: fromPromise<DecideResult, DecideInput>(async ({ input }) => {
        calls.push(input);
        return answers.shift() ?? { ok: false, code: 'network' };
      }),
      approval: approvalMachine.provide({
        actors: {
          approveTransfer: fromPromise<ApproveResult, { transactionId: number; code: string; idempotencyKey: string }>(async ({ input }) => {
            codes.push(`${input.transactionId}:${input.code}`);
            return approve.shift() ?? { ok: false, code: 'network' };
          }),
          cancelTransfer: fromPromise<CancelResult, { transactionId: number; idempotencyKey: string }>(async () => ({ ok: true, status: 'canceled' })),
        },
      }),
    },
  });
  const actor = createActor(logic).start();
  return { actor, calls, codes };
}

const answer = (status: 'declined' | 'approved' | 'approvalNeeded', ids: number[]) => ({
  ok: true as const,
  answer: {
    status,
    approvalId: status === 'approvalNeeded' ? 77 : null,
    approveType: status === 'approvalNeeded' ? ('otp' as const) : ('none' as const),
    approvalSentTo: null,
    transactionIds: ids,
    expiresAt: status === 'approvalNeeded' ? new Date(Date.now() + 900_000).toISOString() : null,
  },
});
const settled = (actor: ReturnType<typeof run>['actor']) => waitFor(actor, (s) => !s.hasTag('busy'));
const child = (actor: ReturnType<typeof run>['actor']) => (actor.getSnapshot().children as { approval?: AnyActorRef }).approval!;

describe('the business decision chart', () => {
  it('declines chosen payments at once; nothing is sent without a payment chosen; reset goes back', async () => {
    const { actor, calls } = run([answer('declined', [5, 6])]);
    actor.send({ type: 'DECISION.START', target: { transactionIds: [] }, declined: true });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toEqual([]);
    actor.send({ type: 'DECISION.START', target: { transactionIds: [5, 6] }, declined: true });
    await settled(actor);
    expect(actor.getSnapshot().value).toBe('done');
    expect(calls).toEqual([{ target: { transactionIds: [5, 6] }, declined: true, idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
    actor.send({ type: 'DECISION.RESET' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.answer).toBeNull();
  });

  it('no answer keeps the key for the same decision; a refusal is kept and a new decision gets a new key', async () => {
    const { actor, calls } = run([
      { ok: false, code: 'network' },
      { ok: false, code: 'failed', failure: { responseCode: 'VF', responseDescription: 'selfApproval' } },
      answer('approved', [9]),
    ]);
    const target = { batchId: 9 };
    actor.send({ type: 'DECISION.START', target, declined: false });
    await settled(actor);
    expect(actor.getSnapshot().context.error).toBe('network');
    actor.send({ type: 'DECISION.START', target, declined: false });
    await settled(actor);
    expect(calls[1]!.idempotencyKey).toBe(calls[0]!.idempotencyKey);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.failure).toMatchObject({ responseCode: 'VF' });
    actor.send({ type: 'DECISION.START', target, declined: false });
    await settled(actor);
    expect(calls[2]!.idempotencyKey).not.toBe(calls[1]!.idempotencyKey);
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('the key is kept only for the very same decision: another payment, another batch, the other choice or approve after decline each get a new one', async () => {
    const { actor, calls } = run([]);
    const send = async (target: DecisionTarget, declined: boolean) => {
      actor.send({ type: 'DECISION.START', target, declined });
      await settled(actor);
      return calls.at(-1)!.idempotencyKey;
    };
    const first = await send({ transactionIds: [5, 6] }, false);
    expect(await send({ transactionIds: [5, 6] }, false)).toBe(first);
    const other = await send({ transactionIds: [5, 7] }, false);
    expect(other).not.toBe(first);
    const fewer = await send({ transactionIds: [5] }, false);
    expect(fewer).not.toBe(other);
    const declined = await send({ transactionIds: [5] }, true);
    expect(declined).not.toBe(fewer);
    const batch = await send({ batchId: 5 }, true);
    expect(batch).not.toBe(declined);
    expect(await send({ batchId: 5 }, true)).toBe(batch);
    const otherBatch = await send({ batchId: 6 }, true);
    expect(otherBatch).not.toBe(batch);
    // a batch and payments never share a key, whatever their numbers
    expect(await send({ transactionIds: [6] }, true)).not.toBe(otherBatch);
  });

  it('an approval mode: the checker’s code goes to the one approval chart with the approval id, then done', async () => {
    const { actor, codes } = run([answer('approvalNeeded', [5])], [{ ok: true, status: 'posted' }]);
    actor.send({ type: 'DECISION.START', target: { transactionIds: [5] }, declined: false });
    await waitFor(actor, (s) => s.matches('approving'));
    child(actor).send({ type: 'CODE.SUBMIT', code: '123456' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(codes).toEqual(['77:123456']);
  });

  it('the checker gives up their approval: back to the list with a notice, nothing decided', async () => {
    const { actor } = run([answer('approvalNeeded', [5])]);
    actor.send({ type: 'DECISION.START', target: { transactionIds: [5] }, declined: false });
    await waitFor(actor, (s) => s.matches('approving'));
    child(actor).send({ type: 'APPROVAL.CANCEL' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.notice).toBe('approvalCanceled');
  });

  it('the approval refused for good: failed with its reason, then back', async () => {
    const failure = { responseCode: 'VF' as const, responseDescription: 'expired' };
    const { actor } = run([answer('approvalNeeded', [5])], [{ ok: false, code: 'failed', failure }]);
    actor.send({ type: 'DECISION.START', target: { transactionIds: [5] }, declined: false });
    await waitFor(actor, (s) => s.matches('approving'));
    child(actor).send({ type: 'CODE.SUBMIT', code: '123456' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.outcome).toMatchObject({ result: 'failed', failure });
    actor.send({ type: 'DECISION.RESET' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
