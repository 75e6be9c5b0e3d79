import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { replicaKeyService, Replica } from '../electron/services/replica/replica.js';
import type { CapacityPolicy } from '../shared/api/capacity.js';
import { FixedSecretStore } from '../test/support/fixed-key-store.js';
import { syntheticPolicies } from '../test/support/synthetic-policies.js';
import type { Figure } from './figure.js';
import { BENCH_OWNER, benchCurrentReplica } from './support/bench-current-replica.js';
import { capacityOverview } from '../electron/services/replica/replica-reads.js';
import { upsertCapacity, writeKind } from '../electron/services/replica/replica-writes.js';

/** Sizes measured, one after another, as every benchmark's: 10,000 and 100,000 (the goals), 1,000,000 with BENCH_1M=1 for the curve. */
const SIZES = (process.env.REPLICA_BENCH_SIZES ?? process.env.BENCH_SIZES ?? `10000,100000${process.env.BENCH_1M === '1' ? ',1000000' : ''}`).split(',').map(Number);
const owner = BENCH_OWNER;
/** What a person types into the list's search box, one keystroke at a time. */
const KEYSTROKES = ['w', 'wi', 'win', 'r', 're', 'res', 'rese', 'reservation 9', 'm5', 'm5.', 'm5.2', 'sc_10', 'sc_1000', 'morgan-a', 'euw1'];
const WRITE_THROUGHS = 9;

/**
 * The local replica as the app uses it (issue 15): one SQLCipher database per
 * owner behind CurrentReplica, slim rows in memory for search and sort, the
 * overview counted by SQL. Each size: the full write a sync does, the first rows
 * and the overview after opening a copy on disk, keystrokes, write-through of one
 * changed policy, and the memory of a Node process holding only the open
 * replica (measured in a child process, so the generated list here does not
 * count). Parts of the path, for context: the goals are held by what the
 * person waits for, in bench/app-path. 1,000,000 (BENCH_1M=1) is printed for the curve.
 */
export default async function replicaStorage(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const rows of SIZES) figures.push(...(await measure(rows)));
  return figures;
}

async function measure(rows: number): Promise<Figure[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-bench-replica-'));
  const label = rows >= 1_000_000 ? `${rows / 1_000_000}M` : `${rows / 1000}k`;
  const goals = rows === 100_000;
  const figures: Figure[] = [];
  const round = (value: number) => Math.round(value * 10) / 10;
  const add = (name: string, value: number, unit = 'ms', budget?: string, within?: boolean) =>
    figures.push({ name: `${label}: ${name}`, value: round(value), unit, ...(budget && goals ? { budget, ...(within === undefined ? {} : { withinBudget: within }) } : {}) });
  const secrets = new FixedSecretStore();
  try {
    let policies: CapacityPolicy[] | null = syntheticPolicies(rows).reverse();
    const sample = policies.filter((_, i) => i % Math.floor(rows / WRITE_THROUGHS) === 7).slice(0, WRITE_THROUGHS);
    const writer = await Replica.open({ dataDir, secrets, owner });
    let t = performance.now();
    await writeKind(writer, 'capacities', policies);
    add('full write of the list (a sync, in the background, yielding)', performance.now() - t);
    await writer.close();
    policies = null;
    const file = join(writer.dir, 'replica.db');
    add('replica file size', (await stat(file)).size / 1024 / 1024, 'MB');

    // A start with the replica on disk: the first window is answered by SQL while the slim rows load.
    t = performance.now();
    const offline = benchCurrentReplica(dataDir, secrets);
    const first = await offline.queryCapacities({ limit: 100 });
    const firstMs = performance.now() - t;
    if (first.rows.length !== 100) throw new Error(`expected a first window of 100 rows, got ${first.rows.length}`);
    add('open to first rows (replica on disk; main-process part only)', firstMs);
    // As a launch asks for it: counted by SQL before any slim row is loaded (the painted figure is bench/app-path).
    add('overview from the replica, cold (no slim row loaded; main-process part only)', await timed(() => offline.read((r) => capacityOverview(r, new Date()))));
    t = performance.now();
    await (await offline.replica())!.warm();
    add('slim rows loaded in the background', performance.now() - t);

    await offline.queryCapacities({ limit: 100 });
    const keystrokes: number[] = [];
    for (const text of KEYSTROKES) keystrokes.push(await timed(() => offline.queryCapacities({ text, limit: 100 })));
    const keystrokeP95 = p95(keystrokes);
    add('search keystroke p95 (main-process part only; the painted figure is bench/app-path)', keystrokeP95);

    const overviewMs = await timed(() => offline.read((r) => capacityOverview(r, new Date())));
    add('overview from the replica, again (its pages in the cache; the cold, painted figure is bench/app-path)', overviewMs);

    const writes: number[] = [];
    for (const [i, policy] of sample.entries()) writes.push(await timed(() => offline.write((r) => upsertCapacity(r, { ...policy, policyName: `renamed by write-through ${i}` }))));
    const writeMedian = median(writes);
    add('write-through of one changed policy (median)', writeMedian, 'ms', '<= 20', writeMedian <= 20);
    add('write-through of one changed policy (slowest)', Math.max(...writes));
    add('first search after a write-through (row moved within the kept sort orders)', await timed(() => offline.queryCapacities({ text: 'renamed', limit: 100 })));
    add('overview after a write-through', await timed(() => offline.read((r) => capacityOverview(r, new Date()))));
    await (await offline.replica())?.close();

    const memory = await replicaProcessMemory(dataDir, (await secrets.get(replicaKeyService(owner.profileId), owner.username)) ?? '');
    add('RSS of a Node process with only the replica open (the app\'s peak is bench/app-path)', memory.rss / 1024 / 1024, 'MB');
    add('of which the JS heap', memory.heapUsed / 1024 / 1024, 'MB');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return figures;
}


async function replicaProcessMemory(dataDir: string, key: string): Promise<{ rss: number; heapUsed: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/support/replica-rss-child.ts', dataDir, key, owner.profileId, owner.username],
    { maxBuffer: 1024 * 1024, timeout: 600_000 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { rss: number; heapUsed: number };
}

export async function timed(run: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await run();
  return performance.now() - t;
}

export function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
