import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountNames } from '../../electron/services/customers/replica-accounts.js';
import { RECOUNTED_STATUSES } from '../../electron/services/overview/replica-overview.js';
import { openKeyed, type Connection } from '../../electron/services/platform/sqlcipher.js';
import { CapacityReplicaDb, REWRITE_THREAD_FROM_ROWS } from '../../electron/services/replica/capacity-replica-db.js';
import { commitVersion } from '../../electron/services/replica/commit-version.js';
import { upcomingOf } from '../../electron/services/worklist/replica-upcoming.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/**
 * A whole-list rewrite of a replica file (a first sync, or a refresh where most
 * rows changed) is written by a thread with its own connection (issue 25): the
 * main thread only prepares rows. What must hold as before: every read sees
 * the copy before or after, whole; afterwards the kept counts, the full-text
 * index and its row triggers are as a main-thread rewrite leaves them, and
 * whatever is kept per commit version is read again.
 */
let dir = '';
const key = randomBytes(32);
const ROWS = 3_000;
const query = { status: undefined, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 100 } as const;
const YEAR_2026 = [Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)] as const;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-replica-thread-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A connection of the test's own: what SQLite holds, not what the replica's connections keep. */
/** The kept counts by status equal a count over the rows (the triggers and the rewrite both keep them). */
function expectCountsKept(file: string): void {
  withOwnConnection(file, (c) => {
    expect(c.prepare('SELECT policy_status, policies, first_rid FROM overview_status ORDER BY first_rid').raw().all()).toEqual(c.prepare(RECOUNTED_STATUSES).raw().all());
  });
}

/** The full-text index matches its rows (SQLite's own check throws otherwise). */
function expectTextIndexWhole(file: string): void {
  withOwnConnection(file, (c) => c.exec(`INSERT INTO capacities_text (capacities_text) VALUES ('integrity-check')`));
}

function withOwnConnection<T>(file: string, read: (connection: Connection) => T): T {
  const connection = openKeyed(file, key, 2 * 1024);
  try {
    return read(connection);
  } finally {
    connection.close();
  }
}

describe('a whole-list rewrite of a replica file', () => {
  it('is written by a thread: reads meanwhile see the empty copy, then the whole list; counts, text index and caches follow', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    try {
      const before = db.readWith(commitVersion);
      expect(db.readWith(accountNames)).toEqual([]);
      expect(db.readWith((c) => upcomingOf(c, ...YEAR_2026))).toEqual([]);

      const first = db.replaceAll(syntheticPolicies(ROWS, 'firsttag'), '2026-11-22T10:00:00.000Z');
      const counts: number[] = [];
      while (db.writing) {
        counts.push(db.count);
        await nextTurn();
      }
      const writes = await first;
      expect(writes).toMatchObject({ written: ROWS, rewrote: true, onThread: true });
      // Empty until the commit, whole after it: never a part of the list.
      expect(counts.every((n) => n === 0 || n === ROWS)).toBe(true);
      expect(counts.filter((n) => n === 0).length).toBeGreaterThan(3);

      expect(db.count).toBe(ROWS);
      expect(db.fetchedAt).toBe('2026-11-22T10:00:00.000Z');
      expect(db.query({ ...query, text: 'firsttag' }).total).toBe(ROWS);
      // Another connection committed: the version moves, so what was kept for the empty copy is read again.
      expect(db.readWith(commitVersion)).not.toBe(before);
      expect([...db.readWith(accountNames)].sort()).toEqual(['morgan-analytics', 'morgan-prod']);
      const upcoming = db.readWith((c) => upcomingOf(c, ...YEAR_2026));
      expect(upcoming.length).toBeGreaterThan(0);
      expect(upcoming.length).toBe(withOwnConnection(file, (c) => upcomingOf(c, ...YEAR_2026)).length);

      expectTextIndexWhole(file);
      expectCountsKept(file);

      // Its row triggers are back: a write-through is found by text and counted by status.
      const added = { ...syntheticPolicies(1)[0]!, cidrId: 'sc_added_1', policyName: 'bought after the first sync', policyStatus: 'NEW_STATUS' };
      db.upsert(added);
      expect(db.query({ ...query, text: 'after the first sync' }).rows).toEqual([added]);
      expect(db.count).toBe(ROWS + 1);
      expectCountsKept(file);

      // A refresh where every row changed rewrites the whole copy on the thread too, over the old list.
      const second = await db.replaceAll(syntheticPolicies(ROWS, 'secondtag'), '2026-11-22T11:00:00.000Z');
      expect(second).toMatchObject({ written: ROWS, deleted: ROWS + 1, rewrote: true, onThread: true });
      expect(db.count).toBe(ROWS);
      expect(db.query({ ...query, text: 'firsttag' }).total).toBe(0);
      expect(db.query({ ...query, text: 'secondtag' }).total).toBe(ROWS);
      expect(db.query({ ...query, text: 'after the first sync' }).total).toBe(0);
      expectTextIndexWhole(file);
    } finally {
      await db.close();
    }
  });

  it('of a small list (fewer rows than the thread is worth) is the main thread\'s, on a file too: counts, text index, triggers and caches as the thread leaves them', async () => {
    const rows = Math.floor(REWRITE_THREAD_FROM_ROWS / 3);
    const file = join(dir, 'replica.db');
    const warnings: string[] = [];
    const db = CapacityReplicaDb.open(file, key, { warn: (message) => warnings.push(message) });
    try {
      const before = db.readWith(commitVersion);
      expect(db.readWith(accountNames)).toEqual([]);
      expect(await db.replaceAll(syntheticPolicies(rows, 'firsttag'), '2026-11-22T10:00:00.000Z')).toMatchObject({ written: rows, rewrote: true, onThread: false });
      expect(db.count).toBe(rows);
      expect(db.fetchedAt).toBe('2026-11-22T10:00:00.000Z');
      expect(db.query({ ...query, text: 'firsttag' }).total).toBe(rows);
      expect(db.readWith(commitVersion)).not.toBe(before);
      expect([...db.readWith(accountNames)].sort()).toEqual(['morgan-analytics', 'morgan-prod']);
      expectTextIndexWhole(file);
      expectCountsKept(file);

      const added = { ...syntheticPolicies(1)[0]!, cidrId: 'sc_added_1', policyName: 'bought after the first sync', policyStatus: 'NEW_STATUS' };
      db.upsert(added);
      expect(db.query({ ...query, text: 'after the first sync' }).rows).toEqual([added]);
      expectCountsKept(file);

      const second = await db.replaceAll(syntheticPolicies(rows, 'secondtag'), '2026-11-22T11:00:00.000Z');
      expect(second).toMatchObject({ written: rows, deleted: rows + 1, rewrote: true, onThread: false });
      expect(db.query({ ...query, text: 'firsttag' }).total).toBe(0);
      expect(db.query({ ...query, text: 'secondtag' }).total).toBe(rows);
      expectTextIndexWhole(file);
      // Not a thread that failed: nothing to say.
      expect(warnings).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('in memory (no keychain) stays on the main thread', async () => {
    const db = CapacityReplicaDb.inMemory();
    try {
      expect(await db.replaceAll(syntheticPolicies(10), '2026-11-22T10:00:00.000Z')).toMatchObject({ rewrote: true, onThread: false });
      expect(db.count).toBe(10);
    } finally {
      await db.close();
    }
  });
});
