import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CapacityIndex } from '../electron/services/cache/capacity-index.js';
import { PolicyCache } from '../electron/services/cache/policy-cache.js';
import { FixedSecretStore } from '../test/support/fixed-key-store.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import type { Figure } from './figure.js';

const ROWS = 100_000;
const RUNS = 5;
const owner = { profileId: 'bench', username: 'bench@example.com' };

/**
 * The offline cache at 100,000 policies: opening and decrypting it against a
 * bare JSON.parse of the same plaintext (the floor), and the main-process
 * query that answers each filter keystroke.
 */
export default async function offlineCache(): Promise<Figure[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-bench-cache-'));
  try {
    const secrets = new FixedSecretStore();
    const policies = syntheticPolicies(ROWS);
    const writer = await PolicyCache.open({ dataDir, secrets, owner });
    const writeStart = performance.now();
    await writer.write('capacities', policies);
    const writeMs = performance.now() - writeStart;
    const plaintext = JSON.stringify({ fetchedAt: new Date().toISOString(), value: policies });

    const load: number[] = [];
    const parse: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      // Alternate so both see the same machine state.
      let t = performance.now();
      const fresh = await PolicyCache.open({ dataDir, secrets, owner });
      const entry = await fresh.read('capacities');
      load.push(performance.now() - t);
      if (entry?.value.length !== ROWS) throw new Error('cache did not load');
      t = performance.now();
      JSON.parse(plaintext);
      parse.push(performance.now() - t);
    }
    const loadMs = median(load);
    const parseMs = median(parse);

    const buildStart = performance.now();
    const index = new CapacityIndex(policies);
    index.query({ text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 100, status: undefined });
    const indexMs = performance.now() - buildStart;
    const keystrokes: number[] = [];
    const typed = ['m', 'm5', 'm5.', 'm5.2', 'm5.2x', 'm5.2xl', 'r', 'r6', 'r6g', 'sc_1', 'sc_12', 'sc_123', 'morgan', 'use1', 'use1-az2'];
    for (const sortBy of ['createdDate', 'ourPrice', 'policyName'] as const) {
      for (const text of typed) {
        const t = performance.now();
        index.query({ text, sortBy, sortOrder: 'asc', offset: 0, limit: 100, status: text.length % 2 ? 'ACTIVE' : undefined });
        keystrokes.push(performance.now() - t);
      }
    }
    const p95 = percentile(keystrokes, 0.95);
    return [
      { name: 'cache write 100k (encrypt + atomic write)', value: round(writeMs), unit: 'ms' },
      { name: 'cache load + decrypt 100k', value: round(loadMs), unit: 'ms' },
      { name: 'JSON.parse of the same plaintext', value: round(parseMs), unit: 'ms' },
      { name: 'load+decrypt / JSON.parse', value: round(loadMs / parseMs, 2), unit: 'x', budget: '<= 2x', withinBudget: loadMs / parseMs <= 2 },
      { name: 'index build + first query 100k', value: round(indexMs), unit: 'ms' },
      { name: 'filter keystroke query p95 (main process)', value: round(p95, 2), unit: 'ms', budget: '<= 50 ms incl. repaint', withinBudget: p95 <= 50 },
    ];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  return percentile(values, 0.5);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
