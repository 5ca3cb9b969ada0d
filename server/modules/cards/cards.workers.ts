/**
 * The cards' worker on the job queue: card.stage applies a production stage the issuer reported
 * (cards.service.ts applyStage: once each, in order; a stage for a card still waiting for its
 * approval or confirmation, or ahead of its predecessor, throws NotYetError and is retried with
 * back-off). main.ts creates the queue (CARD_QUEUES) and app.ts starts the worker.
 */
import type { Db } from '../../db/types.ts';
import type { Job, JobQueue } from '../../db/job-queue.ts';
import { CARD_STAGE_QUEUE, type CardService } from './cards.service.ts';
import type { StageEvent } from './issuer.ts';

export { CARD_QUEUES, CARD_STAGE_QUEUE } from './cards.service.ts';

export function cardJobHandlers(db: Db, service: CardService): Record<string, (job: Job<never>) => Promise<void>> {
  return {
    [CARD_STAGE_QUEUE]: async (job: Job<StageEvent>) => void (await service.applyStage(db, job.data)),
  } as Record<string, (job: Job<never>) => Promise<void>>;
}

export async function startCardWorkers(db: Db, queue: JobQueue, service: CardService): Promise<void> {
  for (const [name, handler] of Object.entries(cardJobHandlers(db, service))) await queue.work(name, handler);
}

/** Runs the card jobs due now, round after round, until none is left (tests); returns how many ran. */
export async function drainCardJobs(db: Db, queue: Pick<JobQueue, 'runDue'>, service: CardService, maxRounds = 20): Promise<number> {
  const handlers = Object.entries(cardJobHandlers(db, service));
  let total = 0;
  for (let round = 0; round < maxRounds; round++) {
    let ran = 0;
    for (const [name, handler] of handlers) ran += await queue.runDue(name, handler);
    if (ran === 0) return total;
    total += ran;
  }
  throw new Error(`the card jobs did not drain in ${maxRounds} rounds`);
}
