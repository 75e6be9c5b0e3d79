import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { CapacityIndex } from '../electron/services/cache/capacity-index.js';
import { PolicyCache } from '../electron/services/cache/policy-cache.js';
import { summarizeCapacities } from '../electron/services/overview/summarize.js';
import { CapacityReplicaDb } from '../electron/services/replica/capacity-replica-db.js';
import { CapacityReplica } from '../electron/services/replica/capacity-replica.js';
import type { CapacityPolicy } from '../shared/api/capacity.js';
import { FixedSecretStore } from '../test/support/fixed-key-store.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import type { Figure } from './figure.js';

const ROWS = Number(process.env.REPLICA_BENCH_ROWS ?? 100_000);
const owner = { profileId: 'bench', username: 'bench@example.com' };
/** What a person types into the list's search box, one keystroke at a time. */
const KEYSTROKES = ['w', 'wi', 'win', 'r', 're', 'res', 'rese', 'reservation 9', 'm5', 'm5.', 'm5.2', 'sc_10', 'sc_1000', 'morgan-a', 'euw1'];
const FIRST_PAGE = { status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 100 } as const;

/**
 * The storage of the local replica, chosen by measurement (docs/local-first.md): today's
 * encrypted shards with an in-memory index against one SQLCipher database with
 * a row per policy, on the figures the local-first design needs, at 100,000
 * policies, in one run.
 */
export default async function replicaStorage(): Promise<Figure[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-bench-replica-'));
  const policies = syntheticPolicies(ROWS);
  const changed: CapacityPolicy = { ...policies[ROWS / 2]!, policyName: 'renamed by write-through' };
  const figures: Figure[] = [];
  const ms = (value: number) => Math.round(value * 10) / 10;
  const add = (name: string, value: number, unit = 'ms', budget?: string, within?: boolean) =>
    figures.push({ name, value: ms(value), unit, ...(budget ? { budget, withinBudget: within ?? false } : {}) });
  try {
    // Shards: the whole list is one value, rewritten whole; answers come from an index in memory.
    const secrets = new FixedSecretStore();
    const writer = await PolicyCache.open({ dataDir, secrets, owner });
    let t = performance.now();
    await writer.write('capacities', policies);
    add('shards: full write of 100k', performance.now() - t);
    t = performance.now();
    const shards = await PolicyCache.open({ dataDir, secrets, owner });
    const loaded = await shards.readCapacities();
    const index = new CapacityIndex(loaded!.value);
    index.query({ ...FIRST_PAGE, text: '' });
    add('shards: cold open to first rows', performance.now() - t, 'ms', '<= 150', performance.now() - t <= 150);
    add('shards: search keystroke p95', p95(KEYSTROKES.map((text) => timed(() => index.query({ ...FIRST_PAGE, text })))), 'ms', '<= 33', undefined);
    add('shards: overview from memory', timed(() => summarizeCapacities(loaded!.value, new Date())));
    t = performance.now();
    await shards.write('capacities', loaded!.value.map((p) => (p.cidrId === changed.cidrId ? changed : p)));
    add('shards: write-through of one policy', performance.now() - t, 'ms', '<= 20', performance.now() - t <= 20);

    // SQLCipher: a row per policy; queries go to the database, nothing is held in memory.
    const key = randomBytes(32);
    const file = join(dataDir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    t = performance.now();
    await db.replaceAll(policies, new Date().toISOString());
    add('sqlite: full write of 100k', performance.now() - t);
    db.close();
    t = performance.now();
    const cold = CapacityReplicaDb.open(file, key);
    cold.query({ ...FIRST_PAGE, text: '' });
    const coldMs = performance.now() - t;
    add('sqlite: cold open to first rows', coldMs, 'ms', '<= 150', coldMs <= 150);
    add('sqlite alone: search keystroke p95', p95(KEYSTROKES.map((text) => timed(() => cold.query({ ...FIRST_PAGE, text })))), 'ms', '<= 33');
    cold.close();

    // The design kept: SQLite for storage and the first screen, slim rows in memory for search, sort and figures.
    const rssBefore = process.memoryUsage().rss;
    const replica = new CapacityReplica(CapacityReplicaDb.open(file, key));
    add('sqlite + index: load of the slim rows', timed(() => replica.load()));
    replica.query({ ...FIRST_PAGE, text: '' });
    const keystrokeP95 = p95(KEYSTROKES.map((text) => timed(() => replica.query({ ...FIRST_PAGE, text }))));
    add('sqlite + index: search keystroke p95', keystrokeP95, 'ms', '<= 33', keystrokeP95 <= 33);
    const overviewMs = timed(() => replica.overview(new Date()));
    add('sqlite + index: overview from the replica', overviewMs, 'ms', '<= 300', overviewMs <= 300);
    const writeThrough = timed(() => replica.upsert(changed));
    add('sqlite + index: write-through of one policy', writeThrough, 'ms', '<= 20', writeThrough <= 20);
    add('sqlite + index: first query after a write-through', timed(() => replica.query({ ...FIRST_PAGE, text: 'renamed' })));
    add('sqlite + index: memory added by the open replica', (process.memoryUsage().rss - rssBefore) / 1024 / 1024, 'MB');
    // This process also holds the shards' copy and the generated list, so its total is not the app's: context only.
    add('bench process memory (both designs loaded)', process.memoryUsage().rss / 1024 / 1024, 'MB');
    replica.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return figures;
}

function timed(run: () => unknown): number {
  const t = performance.now();
  run();
  return performance.now() - t;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number;
}
