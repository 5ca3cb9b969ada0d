/**
 * The run's template databases (tests/server/global-setup.ts): the harness copies them rather than
 * migrating and seeding per file, and each copy is a database of its own.
 */
import { count, eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { createTestDatabase, testDriver } from './harness.ts';

describe('template databases', () => {
  it('are made once for the run on this project’s driver', () => {
    expect(inject('dbTemplates')?.driver).toBe(testDriver);
  });

  it('give each test database a copy of its own: with the demo users or without, and what one copy changes the others do not see', async () => {
    const [a, b, bare] = await Promise.all([createTestDatabase(), createTestDatabase(), createTestDatabase({ demoData: false })]);
    try {
      const userCount = async (db: typeof a.open.db) => (await db.select({ n: count() }).from(users))[0]!.n;
      const demoCount = await userCount(a.open.db);
      expect(demoCount).toBeGreaterThan(0);
      expect(await userCount(bare.open.db)).toBe(0);
      const boris = (db: typeof a.open.db) => db.select({ n: count() }).from(users).where(eq(users.email, demoUserByKey.boris.email)).then((r) => r[0]!.n);
      await a.open.db.update(users).set({ email: 'renamed@demo.test' }).where(eq(users.email, demoUserByKey.boris.email));
      expect(await boris(a.open.db)).toBe(0);
      expect(await boris(b.open.db)).toBe(1);
      const later = await createTestDatabase();
      try {
        expect(await boris(later.open.db)).toBe(1);
        expect(await userCount(later.open.db)).toBe(demoCount);
      } finally {
        await later.close();
      }
    } finally {
      await Promise.all([a.close(), b.close(), bare.close()]);
    }
    // four databases copied and opened: PGlite's start takes seconds each on a busy machine
  }, 90_000);
});
