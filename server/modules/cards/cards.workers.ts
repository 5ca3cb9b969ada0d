/**
 * The cards' worker on the job queue: card.stage applies a production stage the issuer reported
 * (cards.service.ts applyStage: once each, in order). A stage ahead of its predecessor throws
 * NotYetError and the queue retries it (1 s doubling: the predecessor is a moment away). A stage
 * for a card that still waits for its fee's approval (65) or its confirmation (23) may wait for
 * days: the handler sends it again itself, a minute doubling up to an hour later each time, for as
 * long as the card waits (the queue's retries would run out), and the job ends; a canceled card
 * drops it. main.ts creates the queue (CARD_QUEUES) and app.ts starts the worker.
 */
import type { Db } from '../../db/types.ts';
import type { Job, JobQueue } from '../../db/job-queue.ts';
import { CARD_STAGE_QUEUE, CardWaitingError, type CardService } from './cards.service.ts';
import type { StageEvent } from './issuer.ts';

export { CARD_QUEUES, CARD_STAGE_QUEUE } from './cards.service.ts';

/** A stage job: the issuer's event, and how many times it was sent again while its card waited. */
export type StageJob = StageEvent & { waited?: number };

const WAIT_FIRST_MS = 60_000;
const WAIT_MAX_MS = 3_600_000;
export const waitDelayMs = (waited: number): number => Math.min(WAIT_MAX_MS, WAIT_FIRST_MS * 2 ** Math.min(waited, 10));

export function cardJobHandlers(db: Db, service: CardService, queue: Pick<JobQueue, 'send'>): Record<string, (job: Job<never>) => Promise<void>> {
  return {
    [CARD_STAGE_QUEUE]: async (job: Job<StageJob>) => {
      const { waited = 0, ...event } = job.data;
      try {
        await service.applyStage(db, event);
      } catch (err) {
        if (!(err instanceof CardWaitingError)) throw err;
        await queue.send(CARD_STAGE_QUEUE, { ...event, waited: waited + 1 }, { afterMs: waitDelayMs(waited) });
      }
    },
  } as Record<string, (job: Job<never>) => Promise<void>>;
}

export async function startCardWorkers(db: Db, queue: JobQueue, service: CardService): Promise<void> {
  for (const [name, handler] of Object.entries(cardJobHandlers(db, service, queue))) await queue.work(name, handler);
}

/** Runs the card jobs due now, round after round, until none is left (tests); returns how many ran. */
export async function drainCardJobs(db: Db, queue: Pick<JobQueue, 'runDue' | 'send'>, service: CardService, maxRounds = 20): Promise<number> {
  const handlers = Object.entries(cardJobHandlers(db, service, queue));
  let total = 0;
  for (let round = 0; round < maxRounds; round++) {
    let ran = 0;
    for (const [name, handler] of handlers) ran += await queue.runDue(name, handler);
    if (ran === 0) return total;
    total += ran;
  }
  throw new Error(`the card jobs did not drain in ${maxRounds} rounds`);
}
