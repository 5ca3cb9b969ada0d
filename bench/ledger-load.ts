/**
 * A closed-loop load of ledger transfers (transferBetweenAccounts) through the platform's HTTP API:
 * `connections` keep-alive sockets, each sending its next request when the previous answer has
 * been read, for `durationMs`. Unlike load.ts, every request has a body of its own and a fresh
 * Idempotency-Key. Runs in a child process so the generator shares no event loop with the
 * reporting process (and the bench can sample the platform's memory meanwhile).
 *
 * - spread: each request moves `amount` between two distinct accounts picked at random among the
 *   accounts of the connection's customer (connection i uses customer i mod customers);
 * - hot: every request touches the first account of the first customer, alternately from it and
 *   to it (per connection), with a random other account of that customer: the hot account does
 *   not drain.
 *
 * Only '00' answers count as transfers; every other response code is counted by code.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

export interface LedgerLoadCustomer {
  token: string;
  /** at least 2 */
  accountIds: number[];
}

export interface LedgerLoadOptions {
  origin: string;
  mode: 'spread' | 'hot';
  customers: LedgerLoadCustomer[];
  /** decimal EUR per transfer, e.g. '0.01' */
  amount: string;
  connections: number;
  durationMs: number;
}

export interface LedgerLoadResult {
  /** answers with responseCode '00' */
  transfers: number;
  transfersPerSecond: number;
  /** every answer by response code ('00' included); 'HTTP <status>' when the body was no envelope */
  codes: Record<string, number>;
  /** requests that got no answer (socket errors) */
  errors: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  elapsedMs: number;
}

async function runLedgerLoad(options: LedgerLoadOptions): Promise<LedgerLoadResult> {
  const target = new URL(options.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  const codes: Record<string, number> = {};
  let errors = 0;
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  const random = (n: number) => Math.floor(Math.random() * n);

  const one = (token: string, body: string) =>
    new Promise<void>((done) => {
      const t0 = performance.now();
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: '/api/v1/?transferBetweenAccounts',
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body).toString(),
            authorization: `Bearer ${token}`,
            'x-client-version': '2.1.2',
            'idempotency-key': randomUUID(),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            let code = `HTTP ${response.statusCode}`;
            try {
              const parsed = JSON.parse(text) as { responseCode?: unknown };
              if (typeof parsed.responseCode === 'string') code = parsed.responseCode;
            } catch {
              // not an envelope: counted by HTTP status
            }
            codes[code] = (codes[code] ?? 0) + 1;
            latencies.push(performance.now() - t0);
            done();
          });
        },
      );
      request.on('error', () => {
        errors++;
        done();
      });
      request.write(body);
      request.end();
    });

  const loop = async (connection: number) => {
    const customer = options.mode === 'hot' ? options.customers[0]! : options.customers[connection % options.customers.length]!;
    const ids = customer.accountIds;
    const hot = ids[0]!;
    let outOfHot = connection % 2 === 0;
    while (performance.now() < deadline) {
      let from: number;
      let to: number;
      if (options.mode === 'hot') {
        const other = ids[1 + random(ids.length - 1)]!;
        [from, to] = outOfHot ? [hot, other] : [other, hot];
        outOfHot = !outOfHot;
      } else {
        from = ids[random(ids.length)]!;
        const k = 1 + random(ids.length - 1);
        to = ids[(ids.indexOf(from) + k) % ids.length]!;
      }
      await one(customer.token, JSON.stringify({ fromAccount: from, toAccount: to, toAmount: options.amount, currency: 'EUR' }));
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, i) => loop(i)));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  const transfers = codes['00'] ?? 0;
  return {
    transfers,
    transfersPerSecond: (transfers / elapsedMs) * 1000,
    codes,
    errors,
    latencyP50Ms: pick(0.5),
    latencyP99Ms: pick(0.99),
    elapsedMs,
  };
}

/** Runs the load in a child process and resolves with its figures. */
export function ledgerLoad(options: LedgerLoadOptions): Promise<LedgerLoadResult> {
  return new Promise((done, reject) => {
    const child = spawn('npx', ['tsx', fileURLToPath(import.meta.url), JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`ledger load generator exited with ${code}`));
      done(JSON.parse(output.trim().split('\n').pop() ?? '{}') as LedgerLoadResult);
    });
  });
}

// Run as a script: `tsx bench/ledger-load.ts '<options json>'` prints the result as one JSON line.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const options = JSON.parse(process.argv[2] ?? '{}') as LedgerLoadOptions;
  void runLedgerLoad(options).then((result) => console.log(JSON.stringify(result)));
}
