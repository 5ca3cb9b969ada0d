/**
 * Deferred actor answers that know about cancellation: an invoked actor that its state leaves
 * before it answers (a new keystroke restarts the e-mail check) is dropped from the queue, so the
 * next answer goes to the call that is still running. (support.ts AnswerQueue keeps every call.)
 */
import { Deferred } from './support.ts';

export class LiveQueue<TInput, TOutput> {
  calls: TInput[] = [];
  private pending: Deferred<TOutput>[] = [];

  next(input: TInput, signal: AbortSignal): Promise<TOutput> {
    this.calls.push(input);
    const d = new Deferred<TOutput>();
    this.pending.push(d);
    signal.addEventListener('abort', () => {
      this.pending = this.pending.filter((p) => p !== d);
    });
    return d.promise;
  }
  /** Settles the oldest running call. */
  answer(output: TOutput): void {
    const d = this.pending.shift();
    if (!d) throw new Error('no call is waiting for an answer');
    d.resolve(output);
  }
  fail(error: unknown): void {
    const d = this.pending.shift();
    if (!d) throw new Error('no call is waiting for an answer');
    d.reject(error);
  }
  get waiting(): number {
    return this.pending.length;
  }
}
