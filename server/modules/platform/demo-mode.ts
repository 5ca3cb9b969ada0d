/**
 * Demo mode, defined in one place (issue 11, finding 2).
 *
 * The demo users (server/db/demo-users.ts) have their passwords, TOTP secrets and recovery codes
 * in the README, an administrator among them; the development mailbox shows every one-time code
 * and activation link to anyone who can reach the server. Both belong to a demo only:
 *
 * - the embedded database (no DATABASE_URL) is demo mode unless DEMO_DATA=false: `npm start` on
 *   a fresh clone seeds the demo users and the demo SSO partner, turns the mailbox on, and the web
 *   app shows a "Demo" bar on every page;
 * - a server with DATABASE_URL is not demo mode unless DEMO_DATA=true;
 * - demo mode is never production: NODE_ENV=production refuses to start while anything of the
 *   demo is present (demoProductionProblems, and demoDataIn for the database's own rows).
 */
import { eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { demoUsers } from '../../db/demo-users.ts';
import { ssoClients } from '../auth/auth.tables.ts';
import { users } from '../customers/customers.tables.ts';
import { DEMO_SSO_CLIENT_ID } from '../security/sso.service.ts';

export interface DemoSettings {
  /** seed the demo users and the demo SSO partner into an empty database; the web app shows the Demo bar */
  demo: boolean;
  /** serve the development mailbox (/dev/mailbox) */
  devMailbox: boolean;
  /** NODE_ENV=production */
  production: boolean;
}

/** A setting that cannot be honoured: the platform refuses to start with this message. */
export class DemoConfigError extends Error {
  override name = 'DemoConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

/** An unset or empty switch is undefined; anything but true/false is refused rather than guessed. */
function booleanSwitch(env: Env, name: string): boolean | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new DemoConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** Demo mode and the mailbox from the environment (DATABASE_URL, DEMO_DATA, DEV_MAILBOX, NODE_ENV). */
export function demoSettings(env: Env): DemoSettings {
  const demoData = booleanSwitch(env, 'DEMO_DATA');
  const mailbox = booleanSwitch(env, 'DEV_MAILBOX');
  const production = env.NODE_ENV === 'production';
  const development = env.NODE_ENV === 'development';
  const demo = demoData ?? !env.DATABASE_URL;
  // Outside demo mode the database holds real people, and the mailbox would show their one-time
  // codes and activation links to anyone who can reach the server. Only a developer's own machine
  // (NODE_ENV=development, as `npm run dev` sets) may turn it on there, e.g. to try registration
  // against a local PostgreSQL; anywhere else asking for it is refused rather than ignored.
  // (A production start is refused by demoProductionProblems instead, which names everything present.)
  if (mailbox === true && !demo && !development && !production) {
    throw new DemoConfigError(
      'DEV_MAILBOX=true needs demo mode (the embedded database, or DEMO_DATA=true) or NODE_ENV=development: the mailbox shows every one-time code and link to anyone who can reach the server',
    );
  }
  return { demo, devMailbox: mailbox ?? demo, production };
}

/**
 * What of the demo is present in a production start (NODE_ENV=production), from the environment
 * and from the database (demoDataIn); empty when the start may go on.
 */
export function demoProductionProblems(env: Env, settings: DemoSettings, inDatabase: readonly string[]): string[] {
  if (!settings.production) return [];
  const problems: string[] = [];
  if (env.DEMO_DATA === 'true') problems.push('DEMO_DATA=true');
  else if (settings.demo) problems.push('demo mode (the embedded database without DEMO_DATA=false)');
  if (env.DEV_MAILBOX === 'true') problems.push('DEV_MAILBOX=true');
  else if (settings.devMailbox) problems.push('the development mailbox (on in demo mode)');
  return [...problems, ...inDatabase];
}

/** The message a refused production start prints. */
export function demoProductionRefusal(problems: readonly string[]): string {
  return [
    'Refusing to start with NODE_ENV=production while demo data or development tools are present:',
    ...problems.map((p) => `  - ${p}`),
    'Demo users have published passwords and TOTP secrets, and the mailbox shows every one-time code.',
    'Use a database without the demo data, and leave DEMO_DATA and DEV_MAILBOX unset (or false).',
  ].join('\n');
}

/**
 * The demo's rows in a database: users with a demo e-mail address or a demo TOTP secret (the
 * README publishes both), and the demo SSO partner. Each as a sentence for the refusal.
 */
export async function demoDataIn(db: Db): Promise<string[]> {
  const emails = demoUsers.map((u) => u.email);
  const secrets = demoUsers.flatMap((u) => (u.totpSecret ? [u.totpSecret] : []));
  const found = await db
    .select({ email: users.email })
    .from(users)
    .where(or(inArray(users.email, emails), inArray(users.totpSecret, secrets)))
    .orderBy(users.email);
  const problems: string[] = [];
  if (found.length > 0) problems.push(`demo users in the database (${found.map((u) => u.email).join(', ')})`);
  const [client] = await db.select({ id: ssoClients.clientId }).from(ssoClients).where(eq(ssoClients.clientId, DEMO_SSO_CLIENT_ID));
  if (client) problems.push(`the demo SSO client "${client.id}" in the database`);
  return problems;
}
