/**
 * Scale-out: two platform instances (separate processes, the built server) on one PostgreSQL
 * database, sharing nothing but it. The ledger load (bench/ledger-load.ts) runs against both at
 * once, each instance getting half of the connections and of the customers; the bench prints each
 * instance's rate and the combined one beside one instance alone on the same database, and then
 * the books' check (reconcile(), the EUR total unchanged, every '00' answer posted exactly once).
 *
 * `runScaleOut()` is called by bench/run.ts (part d); `npx tsx bench/scale-out.ts` runs it alone.
 * BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ACCOUNTS and BENCH_PG_URL as for bench/ledger.ts;
 * BENCH_PORT the first of the two ports (default 4660).
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { openPostgres } from '../server/db/open.ts';
import { seedDatabase } from '../server/db/seed.ts';
import { reconcile } from '../server/modules/accounts/ledger.ts';
import { createLedgerFixture, eurTotals, type LedgerFixture } from '../scripts/ledger-fixture.ts';
import { ledgerLoad, type LedgerLoadCustomer, type LedgerLoadResult } from './ledger-load.ts';
import { createBenchDatabase, postgresReachable, rssMb, signInSimple, startPlatform, type Started } from './platform.ts';

export interface ScaleOutOptions {
  ports: [number, number];
  seconds: number;
  connections: number;
  /** accounts per customer (default 12) and customers (default 16) */
  accountsPerCustomer?: number;
  customers?: number;
  /** each instance's pool (default 8: the two together hold 16 connections, as one instance of bench/ledger.ts) */
  poolMax?: number;
}

const AMOUNT = '0.01';
const WARMUP_MS = 1500;

function line(label: string, value: string): void {
  console.log(`${label.padEnd(48)} ${value}`);
}
const eur = (minor: bigint) => `${minor < 0n ? '-' : ''}${(minor < 0n ? -minor : minor) / 100n}.${((minor < 0n ? -minor : minor) % 100n).toString().padStart(2, '0')} EUR`;
function describe(r: LedgerLoadResult): string {
  const others = Object.entries(r.codes).filter(([c]) => c !== '00');
  return (
    `${r.transfersPerSecond.toFixed(0)} transfers/s (p50 ${r.latencyP50Ms.toFixed(1)} ms, p99 ${r.latencyP99Ms.toFixed(1)} ms)` +
    (others.length ? `, non-00: ${others.map(([c, n]) => `${c} x${n}`).join(', ')}` : '') +
    (r.errors ? `, ${r.errors} socket errors` : '')
  );
}

/** Runs the scale-out bench and prints it; false when the books do not balance or a part failed. */
export async function runScaleOut(options: ScaleOutOptions): Promise<boolean> {
  const perCustomer = options.accountsPerCustomer ?? 12;
  const customerCount = options.customers ?? 16;
  const poolMax = options.poolMax ?? 8;
  console.log(
    `\n== (d) Scale-out: two platform instances on one PostgreSQL, ledger load on both at once (${options.connections} connections in all, ${options.seconds} s, ${customerCount} customers x ${perCustomer} accounts, pool ${poolMax} each) ==`,
  );
  if (!(await postgresReachable())) {
    console.log('  PostgreSQL is not reachable (BENCH_PG_URL): skipped');
    return true;
  }
  const database = await createBenchDatabase('scale');
  const problems: string[] = [];
  try {
    const prepared = await openPostgres(database.url, 4);
    const fixtures: LedgerFixture[] = [];
    let before: Awaited<ReturnType<typeof eurTotals>>;
    try {
      await seedDatabase(prepared.db, { demo: false });
      for (let i = 0; i < customerCount; i++) {
        fixtures.push(await createLedgerFixture(prepared.db, { accounts: perCustomer, fundEach: '100.00', firstName: `Scale${i + 1}` }));
      }
      before = await eurTotals(prepared.db);
    } finally {
      await prepared.close();
    }

    const env = { DATABASE_POOL_MAX: String(poolMax) };
    const readyPath = '/api/v1/';
    const instances: Started[] = [];
    let answered = 0;
    try {
      // Started one after the other: the first applies the migrations (already applied here) and
      // stores the keys; both then sign the same tokens.
      for (const port of options.ports) instances.push(await startPlatform(port, database.url, { env, readyPath }));
      const [a, b] = instances as [Started, Started];
      // Each customer signs in on one instance; its token is good on both (one key, one database).
      const customers: LedgerLoadCustomer[] = [];
      for (const [i, f] of fixtures.entries()) {
        customers.push({ token: await signInSimple((i % 2 === 0 ? a : b).origin, f.email, f.password), accountIds: f.accountIds });
      }
      const half = Math.max(1, Math.floor(options.connections / 2));
      const base = { mode: 'spread' as const, amount: AMOUNT };
      const count = (r: LedgerLoadResult) => (answered += r.transfers);

      // One instance alone with every connection, for the comparison.
      count(await ledgerLoad({ ...base, origin: a.origin, customers, connections: options.connections, durationMs: WARMUP_MS }));
      const alone = await ledgerLoad({ ...base, origin: a.origin, customers, connections: options.connections, durationMs: options.seconds * 1000 });
      count(alone);
      // Both at once: each instance half of the connections and its half of the customers.
      const onA = customers.filter((_, i) => i % 2 === 0);
      const onB = customers.filter((_, i) => i % 2 === 1);
      const both = await Promise.all([
        ledgerLoad({ ...base, origin: a.origin, customers: onA, connections: half, durationMs: options.seconds * 1000 }),
        ledgerLoad({ ...base, origin: b.origin, customers: onB, connections: options.connections - half, durationMs: options.seconds * 1000 }),
      ]);
      both.forEach(count);
      line('  one instance alone (every connection)', describe(alone));
      line('  instance A (half of the connections)', describe(both[0]));
      line('  instance B (the other half)', describe(both[1]));
      const combined = both[0].transfersPerSecond + both[1].transfersPerSecond;
      line('  combined, both at once', `${combined.toFixed(0)} transfers/s (${(combined / Math.max(1, alone.transfersPerSecond)).toFixed(2)} x one instance)`);
      line('  memory of the instances after the load', instances.map((s, i) => `${'AB'[i]} ${rssMb(s.pid)?.toFixed(0) ?? '?'} MB`).join(', '));
      for (const r of [alone, ...both]) if (r.errors) problems.push(`${r.errors} requests got no answer`);
    } finally {
      for (const s of instances) await s.stop();
    }

    // The books, with both instances stopped.
    const reopened = await openPostgres(database.url, 2);
    try {
      problems.push(...(await reconcile(reopened.db)));
      const after = await eurTotals(reopened.db);
      line('  books after the run', `customers ${eur(after.customerBalances)}, provider legs ${eur(after.providerLegs)}, legs sum ${eur(after.legs)}`);
      if (after.legs !== 0n) problems.push(`the EUR legs sum to ${after.legs}, not 0`);
      if (after.customerBalances !== before.customerBalances) problems.push(`the customers' EUR total changed from ${eur(before.customerBalances)} to ${eur(after.customerBalances)}`);
      if (after.providerLegs !== before.providerLegs) problems.push(`the provider's EUR legs changed by ${after.providerLegs - before.providerLegs}`);
      const posted = after.transfers - before.transfers;
      if (posted !== answered) problems.push(`${posted} transfers were posted but ${answered} were answered '00'`);
      line('  transfers posted (warm-up included)', `${posted}, '00' answers ${answered}`);
    } finally {
      await reopened.close();
    }
  } finally {
    await database.drop();
  }
  if (problems.length === 0) line('  books', 'balanced: reconcile() clean, EUR total unchanged, every 00 posted once');
  else {
    console.log('  !!!!!!!! THE BOOKS DO NOT BALANCE !!!!!!!!');
    for (const p of problems) console.log(`  !!! ${p}`);
  }
  return problems.length === 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const port = Number(process.env.BENCH_PORT ?? 4660);
  const ok = await runScaleOut({
    ports: [port, port + 1],
    seconds: Number(process.env.BENCH_SECONDS ?? 8),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
    ...(process.env.BENCH_ACCOUNTS ? { accountsPerCustomer: Math.max(2, Math.ceil(Number(process.env.BENCH_ACCOUNTS) / 16)) } : {}),
  });
  process.exitCode = ok ? 0 : 1;
}
