/**
 * A model path's actor answer played into the test double: `xstate.done.actor.*` answers the
 * oldest waiting call with the event's output, `xstate.error.actor.*` fails it with the event's
 * error (AnswerQueue and LiveQueue both take either), inside act() so React renders the result.
 */
import { act } from '@testing-library/react';

export async function settleFromEvent<TOutput>(
  queue: { answer(output: TOutput): void; fail(error: unknown): void },
  event: { type: string; output?: unknown; error?: unknown },
): Promise<void> {
  await act(async () => {
    if (event.type.startsWith('xstate.error')) queue.fail(event.error);
    else queue.answer(event.output as TOutput);
  });
}
