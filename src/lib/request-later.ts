/**
 * callMethod and callMethodOrThrow of the request wrapper (request.ts), which loads with the first
 * call: the sign-in page makes none before it is interactive, so the wrapper, the validation
 * messages and the methods' contract stay out of what it downloads first (issue 12). Modules on
 * that page call through here; every other module imports request.ts itself.
 */
import type * as Request from './request.ts';

const load = () => import('./request.ts');

export const callMethod: typeof Request.callMethod = async (name, payload, options) => (await load()).callMethod(name, payload, options);

export const callMethodOrThrow: typeof Request.callMethodOrThrow = async (name, payload) => (await load()).callMethodOrThrow(name, payload);
