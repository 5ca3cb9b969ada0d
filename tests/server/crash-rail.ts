/**
 * A rail for the job-queue crash test (job-queue-crash.test.ts), loaded by the platform process
 * through RAIL_ADAPTERS (rails/adapters.ts): the network simulator's answers and events, with a book
 * the network keeps outside the platform's process (CRASH_RAIL_BOOK, a file appended to before each
 * answer, so a SIGKILL never loses a line) and a slow answer (CRASH_RAIL_DELAY_MS), so a kill can
 * land between the rail taking an instruction and the platform recording its answer.
 *
 * Book lines: `<instructionId> <pid> first|again`. Like a real rail, it knows an instruction by its
 * id: a second submission (the platform died before recording the first answer) is `again`, gets
 * the same answer and re-tells the same status events, which the platform must apply once.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { simulatorOptionsFrom } from '../../server/modules/rails/adapters.ts';
import type { Rail, RailAdapter } from '../../server/modules/rails/rails.ts';
import { createSimulator } from '../../server/modules/rails/simulator.ts';

export function createRailAdapter(_rail: Rail): RailAdapter {
  const book = process.env.CRASH_RAIL_BOOK;
  if (!book) throw new Error('crash-rail: CRASH_RAIL_BOOK is not set');
  const delayMs = Number(process.env.CRASH_RAIL_DELAY_MS ?? 0);
  const simulator = createSimulator(simulatorOptionsFrom(process.env));
  return {
    name: 'crash-rail',
    async submit(instruction, emit) {
      const known = existsSync(book) && readFileSync(book, 'utf8').split('\n').some((line) => line.startsWith(`${instruction.instructionId} `));
      appendFileSync(book, `${instruction.instructionId} ${process.pid} ${known ? 'again' : 'first'}\n`);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return simulator.submit(instruction, emit);
    },
  };
}
