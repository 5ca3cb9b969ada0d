/**
 * `npm run bench:mass` — a 1,000-row mass payout (issue 15 "Done when": the time to validate and
 * to post). In one process on the embedded database (PGlite, in memory) or, with DATABASE_URL's
 * server, on a fresh PostgreSQL database, with the demo data and the real job queue:
 *
 * - validate: the preview call's work (the CSV read, every row's payee and amount checked, each
 *   fee computed), nothing written;
 * - create: the same checks again, the batch's request with its hold, the batch and its rows;
 * - post: the mass.pay job paying every row as its own transfer, one transaction a row;
 * for a p2p batch (to platform users by e-mail, posted at once) and a wire batch (payouts: each
 * row held and instructed to the rail; the rail's settling is the rails' and not timed here).
 * Prints each time, per row, and the ratios post/validate; checks the ledger reconciles.
 */
import { eq, and } from 'drizzle-orm';
import { openPglite, openPostgres, type OpenDatabase } from '../server/db/open.ts';
import { seedDatabase } from '../server/db/seed.ts';
import { startJobQueue } from '../server/db/job-queue.ts';
import { accounts } from '../server/modules/accounts/accounts.tables.ts';
import { reconcile } from '../server/modules/accounts/ledger.ts';
import { users } from '../server/modules/customers/customers.tables.ts';
import { createPayoutService } from '../server/modules/rails/payouts.service.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../server/modules/rails/simulator.ts';
import { drainRailJobs, RAIL_QUEUES } from '../server/modules/rails/workers.ts';
import { createMassService } from '../server/modules/transfers/mass.service.ts';
import { createTransferService, type TransferActor } from '../server/modules/transfers/transfers.service.ts';
import type { Db } from '../server/db/types.ts';
import { createBenchDatabase } from './platform.ts';

const ROWS = Number(process.env.BENCH_MASS_ROWS ?? 1000);
const PAYEES = ['anna@demo.test', 'tom@demo.test', 'boris@demo.test'];
const IBAN = 'DE89370400440532013000';

function line(label: string, value: string): void {
  console.log(`${label.padEnd(40)} ${value}`);
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

const scratch = process.env.DATABASE_URL ? await createBenchDatabase('mass') : null;
const database: OpenDatabase = scratch ? await openPostgres(scratch.url, 4) : await openPglite();
try {
  await seedDatabase(database.db, { demo: true, history: false });
  const db = database.db as Db;
  const queue = await startJobQueue(database, RAIL_QUEUES, (err) => console.error(err));
  const simulator = createSimulator({ ...DEFAULT_SIMULATOR_OPTIONS, returnBasisPoints: 0 });
  const payouts = createPayoutService({ queue, adapterOf: () => simulator, now: Date.now });
  const transfers = createTransferService({ now: Date.now, approvals: null, publisher: null, payouts });
  const mass = createMassService(transfers);

  // rita (approve mode none) pays from her EUR account, topped up for two batches
  const [rita] = await db.select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, 'rita@demo.test'));
  const [eur] = await db.select().from(accounts).where(and(eq(accounts.customerId, rita!.customerId), eq(accounts.currency, 'EUR'), eq(accounts.purpose, 'customer')));
  const actor: TransferActor = { userId: rita!.id, customerId: rita!.customerId, ip: '127.0.0.1', publish: () => undefined };
  await db.execute(
    (await import('drizzle-orm')).sql`
      with e as (insert into journal_entries (kind, idempotency_key, description) values ('deposit', 'bench-mass-topup', '{}'::jsonb) returning id),
      p as (select a.account_id from accounts a join customers c on c.id = a.customer_id where c.is_provider and a.purpose = 'fee' and a.currency = 'EUR' limit 1),
      l as (insert into journal_legs (entry_id, account_id, currency, amount_minor)
            select e.id, ${eur!.accountId}::integer, 'EUR', 10000000 from e union all select e.id, p.account_id, 'EUR', -10000000 from e, p)
      update accounts set balance_minor = balance_minor + 10000000 where account_id = ${eur!.accountId}::integer`,
  );
  // daily limits are not what is measured here
  await db.execute((await import('drizzle-orm')).sql`update transfer_limits set daily_minor = 1000000000000, max_minor = 1000000000000 where currency = 'EUR'`);

  const p2pCsv = `email,amount,note\n${Array.from({ length: ROWS }, (_, i) => `${PAYEES[i % PAYEES.length]},${(1 + (i % 50) / 100).toFixed(2)},Row ${i + 1}`).join('\n')}\n`;
  const wireCsv = `countryCode,amount,reference,beneficiaryName,beneficiaryAddress,iban,swiftCode\n${Array.from({ length: ROWS }, (_, i) => `DE,${(2 + (i % 50) / 100).toFixed(2)},Invoice ${i + 1},Payee ${i + 1},"Hauptstrasse ${i + 1}, Berlin",${IBAN},COBADEFFXXX`).join('\n')}\n`;

  console.log(`mass payout bench: ${ROWS} rows on ${database.driver === 'pg' ? 'PostgreSQL' : 'PGlite'}`);
  for (const [kind, csv] of [
    ['p2p', p2pCsv],
    ['wire', wireCsv],
  ] as const) {
    const content = new TextEncoder().encode(csv);
    const upload = (preview: boolean) => db.transaction((tx) => mass.upload(tx as never, actor, { kind, fromAccountId: eur!.accountId, fileName: `${kind}.csv`, content, preview }));
    const validate = await timed(() => upload(true));
    const create = await timed(() => upload(false));
    const transferId = create.value.transactionId!;
    const post = await timed(() => mass.payBatch(db, transferId));
    if (post.value !== ROWS) throw new Error(`${kind}: ${post.value} rows paid of ${ROWS}`);
    line(`${kind}: validate (preview)`, `${validate.ms.toFixed(0)} ms (${((validate.ms / ROWS) * 1000).toFixed(0)} µs a row), ${(create.value.fee)} EUR of fees`);
    line(`${kind}: create (validate, hold, write)`, `${create.ms.toFixed(0)} ms`);
    line(`${kind}: post (every row its transfer)`, `${post.ms.toFixed(0)} ms (${(post.ms / ROWS).toFixed(2)} ms a row)`);
    line(`${kind}: post / validate`, `${(post.ms / validate.ms).toFixed(2)}`);
    line(`${kind}: validate + create + post`, `${((validate.ms + create.ms + post.ms) / 1000).toFixed(2)} s`);
  }
  // the wire rows' instructions go to the simulated rail (not timed): the ledger must still reconcile
  await drainRailJobs(db, queue, payouts, 200).catch(() => undefined);
  const problems = await reconcile(db);
  line('ledger reconciles', problems.length === 0 ? 'yes' : `NO: ${problems.slice(0, 3).join('; ')}`);
  await queue.stop();
  if (problems.length > 0) process.exitCode = 1;
} finally {
  await database.close();
  await scratch?.drop();
}
