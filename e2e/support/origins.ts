/** The journeys' platforms: one per Playwright worker, on E2E_PORT, E2E_PORT + 1, … */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export function e2ePort(parallelIndex: number): number {
  return Number(process.env.E2E_PORT ?? 4317) + parallelIndex;
}

export function e2eOrigin(parallelIndex: number): string {
  return `http://127.0.0.1:${e2ePort(parallelIndex)}`;
}
