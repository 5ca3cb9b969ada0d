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
 *
 * The client is lean on purpose, like pgbench's: one raw keep-alive socket per connection, the
 * request written as one string, the answer read by its Content-Length and its responseCode found
 * without parsing the JSON. Node's http client cost about as much CPU per request as the platform
 * itself, on the same 2 cores, and the comparison with pgbench is about the platform.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
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
  /** CPU time the generator itself used (user + system), to tell its share of the machine */
  generatorCpuMs: number;
}

async function runLedgerLoad(options: LedgerLoadOptions): Promise<LedgerLoadResult> {
  const target = new URL(options.origin);
  const latencies: number[] = [];
  const codes: Record<string, number> = {};
  let errors = 0;
  const cpu0 = process.cpuUsage();
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  const random = (n: number) => Math.floor(Math.random() * n);
  // Keys unique across runs and processes: a random prefix, then a counter.
  const keyPrefix = randomUUID();
  let keyCounter = 0;
  const head = (token: string, length: number) =>
    `POST /api/v1/?transferBetweenAccounts HTTP/1.1\r\nhost: ${target.host}\r\ncontent-type: application/json\r\n` +
    `content-length: ${length}\r\nauthorization: Bearer ${token}\r\nx-client-version: 2.1.2\r\n` +
    `idempotency-key: ${keyPrefix}-${keyCounter++}\r\n\r\n`;

  /** One keep-alive connection sending a request after each answer until the deadline. */
  const loop = (connection: number) =>
    new Promise<void>((done) => {
      const customer = options.mode === 'hot' ? options.customers[0]! : options.customers[connection % options.customers.length]!;
      const ids = customer.accountIds;
      const hot = ids[0]!;
      let outOfHot = connection % 2 === 0;
      const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
      let buffer: Buffer = Buffer.alloc(0);
      let t0 = 0;
      const send = () => {
        if (performance.now() >= deadline) {
          socket.end();
          return done();
        }
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
        const body = `{"fromAccount":${from},"toAccount":${to},"toAmount":"${options.amount}","currency":"EUR"}`;
        t0 = performance.now();
        socket.write(head(customer.token, Buffer.byteLength(body)) + body);
      };
      const fail = () => {
        errors++;
        socket.destroy();
        done();
      };
      socket.on('connect', send);
      socket.on('error', fail);
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headers = buffer.subarray(0, end).toString('latin1');
        const length = /\r\ncontent-length: *(\d+)/i.exec(headers);
        if (!length) return fail(); // the platform answers with a length; anything else is an error here
        const total = end + 4 + Number(length[1]);
        if (buffer.length < total) return;
        const body = buffer.subarray(end + 4, total).toString('utf8');
        buffer = buffer.subarray(total);
        const code = /"responseCode":"([^"]*)"/.exec(body)?.[1] ?? `HTTP ${headers.slice(9, 12)}`;
        codes[code] = (codes[code] ?? 0) + 1;
        latencies.push(performance.now() - t0);
        send();
      });
    });

  await Promise.all(Array.from({ length: options.connections }, (_, i) => loop(i)));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
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
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
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
