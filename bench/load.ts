/**
 * A closed-loop HTTP load generator: `connections` keep-alive sockets, each sending its next
 * request when the previous answer has been read, for `durationMs`. Runs in a child process of
 * its own so the generator shares no event loop with the reporting process.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationMs: number;
}

export interface LoadResult {
  requests: number;
  non2xx: number;
  errors: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
}

async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();

  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: options.method,
          headers: options.body
            ? { ...options.headers, 'content-length': Buffer.byteLength(options.body).toString() }
            : options.headers,
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            if ((response.statusCode ?? 0) >= 300) non2xx++;
            latencies.push(performance.now() - t0);
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors++;
        resolve();
      });
      if (options.body) request.write(options.body);
      request.end();
    });

  const loop = async () => {
    while (performance.now() < deadline) await one();
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  return {
    requests: latencies.length,
    non2xx,
    errors,
    requestsPerSecond: (latencies.length / elapsedMs) * 1000,
    latencyP50Ms: pick(0.5),
    latencyP99Ms: pick(0.99),
  };
}

/** Runs the load in a child process and resolves with its figures. */
export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', fileURLToPath(import.meta.url), JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(output.trim().split('\n').pop() ?? '{}') as LoadResult);
    });
  });
}

// Run as a script: `tsx bench/load.ts '<options json>'` prints the result as one JSON line.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
  void runLoad(options).then((result) => console.log(JSON.stringify(result)));
}
