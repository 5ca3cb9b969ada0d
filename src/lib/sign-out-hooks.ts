/**
 * What must not outlive a session, registered by the parts of the app that keep something across
 * pages (a mass batch's flow keeps its file: src/features/mass/mass-route.tsx). main.tsx runs them
 * with the caches' clearing on sign-out and expiry. Tiny on purpose: /login loads it.
 */
const hooks = new Set<() => void>();

export function onSignOut(hook: () => void): void {
  hooks.add(hook);
}

export function runSignOutHooks(): void {
  for (const hook of hooks) hook();
}
