/**
 * Sums up a V8 CPU profile (node --cpu-prof; `BENCH_CPU_PROF=<dir> npm run bench` writes the
 * platform's) by where the time goes: self time per package or source folder, and per function.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** A package (node_modules/<name>), a source folder of ours, node's own, or a V8 category. */
function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const ours = /\/(server\/[^/]+\/[^/]+|server\/[^/]+|api|dist-server|variants)\//.exec(url);
  if (ours) return ours[1]!;
  return url.replace(/^.*\//, '');
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idle = [...selfUs.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') continue;
  const area = areaOf(url, functionName);
  areas.set(area, (areas.get(area) ?? 0) + us);
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(server|dist-server|api)\//, '$1/')}:${lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
}
const busy = total - idle;
const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
console.log(`profile: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((busy / total) * 100).toFixed(0)}%); shares of the busy time:`);
console.log('\nself time by area:');
for (const [area, us] of [...areas.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${area}`);
console.log('\nself time by function:');
for (const [fn, us] of [...functions.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${fn}`);
