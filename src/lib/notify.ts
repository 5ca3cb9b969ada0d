/**
 * A tiny toast store. Anything (the session machine's push handler, views) may push a toast; the
 * root layout renders them in an aria-live region. At most MAX_TOASTS are kept: the oldest goes.
 * A toast's time stands still while the pointer is over it or the focus is in it (holdToast,
 * releaseToast; WCAG 2.2.1 timing adjustable: a toast with an Open button can be read and pressed
 * at one's own pace), and runs on with what was left once both have gone.
 */
import { useSyncExternalStore } from 'react';

export type ToastTone = 'info' | 'success' | 'error';
/** A button on the toast (a notification's "Open": document 3 §2 targets); pressing it also dismisses the toast. */
export interface ToastAction {
  label: string;
  onSelect(): void;
}
export interface ToastInput {
  title: string;
  body?: string;
  tone?: ToastTone;
  timeoutMs?: number;
  action?: ToastAction;
}
export interface Toast {
  id: number;
  title: string;
  body?: string;
  tone: ToastTone;
  timeoutMs: number;
  action?: ToastAction;
}

export const MAX_TOASTS = 5;
export const DEFAULT_TOAST_MS = 6_000;
/** No toast stays longer than a minute, whatever a caller asks. */
export const MAX_TOAST_MS = 60_000;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
/** per toast: when its timer was (re)started and how long it had then; what holds it now */
const clocks = new Map<number, { startedAt: number; leftMs: number; holds: Set<ToastHold> }>();
export type ToastHold = 'pointer' | 'focus';

function startClock(id: number, leftMs: number): void {
  const clock = clocks.get(id);
  if (clock) {
    clock.startedAt = Date.now();
    clock.leftMs = leftMs;
  } else clocks.set(id, { startedAt: Date.now(), leftMs, holds: new Set() });
  timers.set(id, setTimeout(() => dismissToast(id), leftMs));
}

/** The toast's time stops (the pointer is over it, or the focus in it). */
export function holdToast(id: number, why: ToastHold): void {
  const clock = clocks.get(id);
  if (!clock) return;
  if (clock.holds.size === 0) {
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.delete(id);
    clock.leftMs = Math.max(0, clock.leftMs - (Date.now() - clock.startedAt));
  }
  clock.holds.add(why);
}

/** That reason no longer holds the toast; with none left its time runs on (at least a second more). */
export function releaseToast(id: number, why: ToastHold): void {
  const clock = clocks.get(id);
  if (!clock || !clock.holds.delete(why) || clock.holds.size > 0) return;
  startClock(id, Math.max(clock.leftMs, 1_000));
}

function emit() {
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  clocks.delete(id);
  const next = toasts.filter((t) => t.id !== id);
  if (next.length !== toasts.length) {
    toasts = next;
    emit();
  }
}

export function pushToast(input: ToastInput): void {
  const timeoutMs = Math.min(Math.max(input.timeoutMs ?? DEFAULT_TOAST_MS, 1_000), MAX_TOAST_MS);
  const toast: Toast = { id: nextId++, title: input.title, body: input.body, tone: input.tone ?? 'info', timeoutMs, ...(input.action ? { action: input.action } : {}) };
  const kept = [...toasts, toast];
  while (kept.length > MAX_TOASTS) {
    const dropped = kept.shift();
    if (dropped) {
      const timer = timers.get(dropped.id);
      if (timer) clearTimeout(timer);
      timers.delete(dropped.id);
      clocks.delete(dropped.id);
    }
  }
  toasts = kept;
  startClock(toast.id, timeoutMs);
  emit();
}

/** Removes every toast (sign-out clears the screen). */
export function clearToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  clocks.clear();
  toasts = [];
  emit();
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, getToasts, getToasts);
}
