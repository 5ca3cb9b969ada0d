/**
 * `npm run ip-ranges -- <file.csv> [--replace]`: loads a provider's VPN / proxy / Tor / relay /
 * hosting list into the IP information service's privacy ranges (server/adapters/ip-info.ts), on
 * DATABASE_URL or the embedded database in DATA_DIR (stop the platform first: PGlite is one
 * process's). Lines are `cidr,flag[|flag...][,note]`; any bad line stops the load with nothing
 * written. `--replace` makes the table exactly this list.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openPglite, openPostgres } from '../server/db/open.ts';
import { loadPrivacyRanges, parsePrivacyRanges } from '../server/adapters/ip-info.ts';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: npm run ip-ranges -- <file.csv> [--replace]');
  process.exit(2);
}
const { ranges, errors } = parsePrivacyRanges(readFileSync(file, 'utf8'));
if (errors.length > 0) {
  console.error(`${file}: ${errors.length} bad line(s), nothing loaded:\n${errors.slice(0, 20).join('\n')}`);
  process.exit(1);
}
const database = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL, 2) : await openPglite(resolve(process.env.DATA_DIR ?? 'data'));
try {
  const count = await loadPrivacyRanges(database.db, ranges, { replace: args.includes('--replace') });
  console.log(`${count} privacy range(s) ${args.includes('--replace') ? 'now make up the list' : 'added'}.`);
} finally {
  await database.close();
}
