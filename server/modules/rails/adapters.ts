/**
 * Which adapter serves each rail (issue 15 §1: "a provider swaps in its own adapter by
 * configuration"). The built-in network simulator serves every rail unless RAIL_ADAPTERS names a
 * module for one:
 *
 *   RAIL_ADAPTERS="wire=./adapters/my-bank.js,oct=@acme/card-payouts"
 *
 * Each module exports `createRailAdapter(rail: Rail): RailAdapter` (rails.ts). The simulator's
 * delays and share of returns: RAIL_SIMULATOR_SETTLE_MS (one delay for every rail, ms) and
 * RAIL_SIMULATOR_RETURN_BP (returns per 10,000 payouts; 0 for none).
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { RAILS, type Rail, type RailAdapter } from './rails.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS, type SimulatorOptions } from './simulator.ts';

export class RailConfigError extends Error {
  override name = 'RailConfigError';
}

function wholeNumber(name: string, raw: string | undefined, max: number): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new RailConfigError(`${name} must be a whole number from 0 to ${max}, got ${raw}`);
  return n;
}

export function simulatorOptionsFrom(env: NodeJS.ProcessEnv): SimulatorOptions {
  const settle = wholeNumber('RAIL_SIMULATOR_SETTLE_MS', env.RAIL_SIMULATOR_SETTLE_MS, 7 * 24 * 3_600_000);
  const returns = wholeNumber('RAIL_SIMULATOR_RETURN_BP', env.RAIL_SIMULATOR_RETURN_BP, 10_000);
  return {
    ...DEFAULT_SIMULATOR_OPTIONS,
    ...(settle === undefined ? {} : { settleAfterMs: Object.fromEntries(RAILS.map((r) => [r, settle])) as Record<Rail, number> }),
    ...(returns === undefined ? {} : { returnBasisPoints: returns }),
  };
}

/** rail -> module specifier, from RAIL_ADAPTERS; refuses an unknown rail or a malformed entry. */
export function adapterModulesFrom(raw: string | undefined): Map<Rail, string> {
  const out = new Map<Rail, string>();
  for (const part of (raw ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [rail, specifier] = part.split('=').map((p) => p.trim());
    if (!rail || !specifier) throw new RailConfigError(`RAIL_ADAPTERS entries are rail=module, got "${part}"`);
    if (!(RAILS as readonly string[]).includes(rail)) throw new RailConfigError(`RAIL_ADAPTERS names an unknown rail "${rail}" (rails: ${RAILS.join(', ')})`);
    out.set(rail as Rail, specifier);
  }
  return out;
}

export async function loadRailAdapters(env: NodeJS.ProcessEnv): Promise<(rail: Rail) => RailAdapter> {
  const simulator = createSimulator(simulatorOptionsFrom(env));
  const configured = new Map<Rail, RailAdapter>();
  for (const [rail, specifier] of adapterModulesFrom(env.RAIL_ADAPTERS)) {
    const url = specifier.startsWith('.') || specifier.startsWith('/') ? pathToFileURL(resolve(specifier)).href : specifier;
    const mod = (await import(url)) as { createRailAdapter?: (rail: Rail) => RailAdapter };
    if (typeof mod.createRailAdapter !== 'function') throw new RailConfigError(`${specifier} does not export createRailAdapter(rail)`);
    configured.set(rail, mod.createRailAdapter(rail));
  }
  return (rail) => configured.get(rail) ?? simulator;
}
