/**
 * Every actor the app starts goes through here (issue 14 item 3): the session (startActor), each
 * flow's view and the device companion (useFlowActor). Each gets the shared inspector when one is
 * set: src/app/inspector.ts sets it in development when the address has `?inspect`; production
 * builds neither set nor read it (and hold no inspector code). An `inspect` passed in the options
 * wins over the shared one (tests).
 * Kept tiny on purpose: /login loads this file.
 */
import { createActor, type Actor, type ActorOptions, type AnyActorLogic, type ConditionalRequired, type InspectionEvent, type IsNotNever, type RequiredActorOptionsKeys } from 'xstate';
import { useActorRef } from '@xstate/react';

export type Inspect = (e: InspectionEvent) => void;

let sharedInspect: Inspect | undefined;

/** Sets (or, with undefined, removes) the inspector given to every actor started from now on. */
export function setSharedInspect(inspect: Inspect | undefined): void {
  sharedInspect = inspect;
}

type Options<TLogic extends AnyActorLogic> = ConditionalRequired<
  [options?: ActorOptions<TLogic> & { [K in RequiredActorOptionsKeys<TLogic>]: unknown }],
  IsNotNever<RequiredActorOptionsKeys<TLogic>>
>;

function withInspect<T extends { inspect?: unknown } | undefined>(options: T): T {
  // production: the options as given (nothing here for /login to load)
  if (!import.meta.env.DEV || !sharedInspect || options?.inspect) return options;
  return { ...options, inspect: sharedInspect } as T;
}

/** createActor with the inspector attached (not started: the caller subscribes, then starts). */
export function startActor<TLogic extends AnyActorLogic>(logic: TLogic, ...[options]: Options<TLogic>): Actor<TLogic> {
  return createActor(logic as AnyActorLogic, withInspect(options as ActorOptions<AnyActorLogic> | undefined)) as Actor<TLogic>;
}

/** @xstate/react's useActorRef with the inspector attached: a flow view's actor. */
export function useFlowActor<TLogic extends AnyActorLogic>(logic: TLogic, ...[options]: Options<TLogic>): Actor<TLogic> {
  return useActorRef(logic as AnyActorLogic, withInspect(options as ActorOptions<AnyActorLogic> | undefined)) as Actor<TLogic>;
}
