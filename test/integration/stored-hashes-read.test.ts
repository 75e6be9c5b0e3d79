/**
 * A refresh over the copy begins by reading each stored row's record hash (CapacityReplica.storedHashes), in slices
 * that yield; a slice holds at least one statement, so a statement's rows bound the main thread's piece (branch
 * stall17: 1,000 rows were a traced turn of 69 ms at 100,000, load 2-5). Every stored row is read, once.
 */
import { rm } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { Replica } from '../../electron/services/replica/replica.js';
import { BENCH_OWNER } from '../../bench/support/bench-current-replica.js';
import { seededCopies } from '../support/seeded-copy.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const POLICIES = 1_200;
const seeded = seededCopies(BENCH_OWNER, () => syntheticPolicies(POLICIES));
afterAll(() => seeded.remove());

it('reads the stored hashes 250 rows a statement at most, every row once', async () => {
  const { dataDir, secrets } = await seeded.copy();
  const replica = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER });
  try {
    const open = (await replica.opened())!;
    const db = open.db;
    const read = db.storedHashesAfter.bind(db);
    const sizes: number[] = [];
    db.storedHashesAfter = (after, limit) => {
      const rows = read(after, limit);
      sizes.push(rows.length);
      return rows;
    };
    const hashes = await open.storedHashes();
    expect(Math.max(...sizes)).toBeLessThanOrEqual(250);
    expect(sizes.reduce((sum, n) => sum + n, 0)).toBe(POLICIES);
    // The same as one statement over the whole table.
    expect(hashes).toEqual(new Map(read(0, POLICIES * 2).map(([, id, hash]) => [id, hash] as const)));
    expect(hashes.size).toBe(POLICIES);
  } finally {
    await replica.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
