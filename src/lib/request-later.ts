/**
 * callMethod and callMethodOrThrow of the request wrapper (request.ts), which loads with the first
 * call: the sign-in page makes none before it is interactive, so the wrapper, the validation
 * messages and the methods' contract stay out of what it downloads first (issue 12). Modules on
 * that page call through here; every other module imports request.ts itself.
 */
import type * as Request from './request.ts';

const load = () => import('./request.ts');

/**
 * A signed-in page opened cold (a reload, a link) reads as soon as its route's loader runs: the
 * wrapper and the methods' contract load at the start, beside the rest, instead of one after the
 * other when the first call asks for them (issue 12: two round trips before /home's first read).
 */
export function preloadRequest(): void {
  void load().then(
    (request) => request.preloadRegistry(),
    () => undefined,
  );
}

export const callMethod: typeof Request.callMethod = async (name, payload, options) => (await load()).callMethod(name, payload, options);

export const callMethodOrThrow: typeof Request.callMethodOrThrow = async (name, payload) => (await load()).callMethodOrThrow(name, payload);
