import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PolicyCache } from '../electron/services/cache/policy-cache.js';
import { FixedSecretStore } from '../test/support/fixed-key-store.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import type { Figure } from './figure.js';

const ROWS = Number(process.env.REFRESH_STALL_ROWS ?? 100_000);
const RUNS = 3;
const owner = { profileId: 'bench', username: 'stall@example.com' };

/**
 * The main process's longest event-loop stall while a full refresh of the
 * replica is written (issue 25: goal <= 50 ms at 100,000): the copy already
 * holds the list, as at every sign-in after the first. Median of three runs,
 * with the load average beside it (this machine is shared).
 */
export default async function refreshStall(): Promise<Figure[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-bench-stall-'));
  const policies = syntheticPolicies(ROWS);
  const stalls: number[] = [];
  try {
    const cache = await PolicyCache.open({ dataDir, secrets: new FixedSecretStore(), owner, verifyDelayMs: 60_000 });
    await cache.writeCapacities(policies);
    for (let run = 0; run < RUNS; run += 1) {
      const histogram = monitorEventLoopDelay({ resolution: 5 });
      histogram.enable();
      await cache.writeCapacities(policies);
      histogram.disable();
      stalls.push(histogram.max / 1e6);
    }
    await cache.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const median = [...stalls].sort((a, b) => a - b)[1] ?? Number.NaN;
  const load = loadavg()[0]?.toFixed(1) ?? '?';
  process.stderr.write(`refresh-stall: runs ${stalls.map((s) => s.toFixed(0)).join(', ')} ms at load ${load}\n`);
  return [
    { name: `longest main-thread stall, full refresh of ${ROWS.toLocaleString('en-US')} (load ${load})`, value: Math.round(median), unit: 'ms', budget: '<= 50 ms', withinBudget: median <= 50 },
  ];
}
