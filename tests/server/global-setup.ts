/**
 * vitest globalSetup of the projects that open databases (server-pglite, server-pg, ui): makes the
 * template databases of the project's driver once for the run (tests/server/db-template.ts) and
 * provides them to the test files as `dbTemplates`. Projects on the same driver share one set
 * (globalSetup runs in vitest's main process); the last project to finish drops them.
 */
import type { TestProject } from 'vitest/node';
import { makeTemplates, type Driver, type Templates } from './db-template.ts';

interface Shared {
  templates: Promise<Templates>;
  users: number;
}

const registry = ((globalThis as { __wlbTestTemplates?: Map<Driver, Shared> }).__wlbTestTemplates ??= new Map());

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const driver: Driver = project.config.env?.TEST_DB === 'pg' ? 'pg' : 'pglite';
  let shared = registry.get(driver);
  if (!shared) {
    shared = { templates: makeTemplates(driver, process.env.DATABASE_URL), users: 0 };
    registry.set(driver, shared);
  }
  shared.users++;
  const templates = await shared.templates;
  project.provide('dbTemplates', templates.info);
  return async () => {
    shared.users--;
    if (shared.users > 0) return;
    registry.delete(driver);
    await templates.drop();
  };
}
