import { createBenchDatabase, rssMb, signInSimple, startPlatform } from './platform.ts';
import { openPglite, openPostgres } from '../server/db/open.ts';
import { seedDatabase } from '../server/db/seed.ts';
import { createLedgerFixture } from '../scripts/ledger-fixture.ts';
import { mkdtempSync, rmSync } from 'node:fs';
const which = process.argv[2] ?? 'pg';
const nodeArgs = process.argv.slice(3);
const env = JSON.parse(process.env.MEMTEST_ENV ?? '{}');
let url: string | undefined; let drop = async () => {}; const dataDir = mkdtempSync('/tmp/wlb-h-api-mem-');
if (which === 'pg') { const d = await createBenchDatabase('mem'); url = d.url; drop = d.drop; }
const o = url ? await openPostgres(url, 2) : await openPglite(dataDir);
await seedDatabase(o.db, { demo: false });
const u = await createLedgerFixture(o.db, { accounts: 1, firstName: 'M' });
await o.close();
const p = await startPlatform(4657, url, { dataDir, readyPath: '/api/v1/', nodeArgs, env });
try {
  const before = rssMb(p.pid);
  const token = await signInSimple(p.origin, u.email, u.password);
  for (let i = 0; i < 20; i++) await (await fetch(p.origin + '/api/v1/?getCustomerInfo', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token }, body: '{}' })).text();
  await new Promise((r) => setTimeout(r, 3000));
  console.log(which, JSON.stringify(nodeArgs), JSON.stringify(env), 'start', before?.toFixed(0), 'idle after sign-in + 20', rssMb(p.pid)?.toFixed(0));
} finally { await p.stop(); await drop(); rmSync(dataDir, { recursive: true, force: true }); }
