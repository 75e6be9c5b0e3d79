/**
 * The Renewals' upcoming read in steps (UpcomingInSlices) on a loaded machine (review18, against branch curve18).
 * A step's wall time there is mostly what the rows do not decide: the statement's own cost and the time the process
 * waits for a core. Sized by that time, steps fell to 8-30 rows at load 27-30 and the opening's read of a 100,000
 * copy took 4-7 times the CPU (0.67-1.24 s against 0.16-0.21 s, alternated in one process): smaller steps were no
 * shorter, only more. Here every reading of the clock finds 6 ms more gone, whatever the rows: the window is still
 * read in steps of hundreds of rows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { UpcomingInSlices, keptUpcoming, upcomingOf } from '../../electron/services/worklist/replica-upcoming.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 9, 1);

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-upcoming-pace-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a step slow whatever its rows (the machine busy) is not read in ever fewer rows: the window still takes a few steps', async () => {
  const file = join(dir, 'pace.db');
  const key = randomBytes(32);
  const db = CapacityReplicaDb.open(file, key);
  const other = openKeyed(file, key, 1024);
  try {
    await db.replaceAll(syntheticPolicies(6_000), new Date(NOW).toISOString());
    const to = NOW + 90 * DAY_MS;
    let clock = 0;
    const busy = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 6));
    let outcome: { rows: readonly number[] | undefined; steps: number };
    try {
      outcome = db.readWith((connection) => {
        const read = new UpcomingInSlices(NOW, to);
        let steps = 1;
        while (read.step(connection)) steps += 1;
        return { rows: keptUpcoming(connection, NOW, to)?.rows.map((row) => row.rid), steps };
      });
    } finally {
      busy.mockRestore();
    }
    // The same rows as one read, from a connection of its own.
    const whole = upcomingOf(other, NOW, to).map((row) => row.rid);
    expect(whole.length).toBeGreaterThan(400);
    expect(outcome.rows).toEqual(whole);
    // Steps of a few hundred rows: the window's two ranges in a handful each (and its ordering, where there is one).
    expect(outcome.steps, `${outcome.steps} steps for ${whole.length} rows`).toBeLessThanOrEqual(Math.ceil(whole.length / 100) + 10);
  } finally {
    other.close();
    await db.close();
  }
});
