import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { CapacityReplica } from '../../electron/services/replica/capacity-replica.js';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { capacityWindow, readKind } from '../../electron/services/replica/replica-reads.js';
import { refreshReplica, type ReplicaSyncDeps } from '../../electron/services/replica/replica-sync.js';
import { upsertCapacity, writeCapacities } from '../../electron/services/replica/replica-writes.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { startSandbox } from '../../sandbox/server.js';
import { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import { readsWhileRefreshing } from '../support/old-list-whole.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { bundleScript, bundledScriptEnv } from '../support/bundled-script.js';

/**
 * A refresh over a copy that already holds the list (issue 25): each fetched
 * row is compared with the stored one and only what changed is written, in
 * the one transaction, the full-text index following each row. What must not
 * change: the old list whole until the commit, search by text afterwards.
 */
let dir = '';
const query = { status: undefined, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 100 } as const;
const ROWS = 3_000;
const key = randomBytes(32);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-replica-diff-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const textTotal = (db: CapacityReplicaDb, text: string) => db.query({ ...query, text }).total;
const ridsOf = (db: CapacityReplicaDb) => new Map(db.slimRows().map((row) => [row.cidrId, row.rid]));

/** SQLite's own check of the full-text index against the rows it indexes (throws SQLITE_CORRUPT_VTAB when they differ). */
function checkTextIndex(file: string): void {
  const connection = openKeyed(file, key, 2 * 1024);
  try {
    connection.exec(`INSERT INTO capacities_text (capacities_text) VALUES ('integrity-check')`);
  } finally {
    connection.close();
  }
}

describe('a refresh over a copy', () => {
  it('writes the one row that changed and the one that came, deletes the one gone, leaves every other row as it was; search follows', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    try {
      const old = syntheticPolicies(ROWS, 'oldtag');
      expect(await db.replaceAll(old, '2026-11-22T10:00:00.000Z')).toMatchObject({ written: ROWS, deleted: 0, rewrote: true });
      const before = ridsOf(db);
      const renamed = { ...old[ROWS - 1]!, policyName: 'zebra renamed by the service' };
      const gone = old[1500]!;
      const bought: CapacityRow = { ...old[0]!, cidrId: 'sc_bought_later', policyName: 'bought since the last refresh' };
      const fresh = [bought, ...old.filter((p) => p !== gone).map((p) => (p.cidrId === renamed.cidrId ? renamed : p))];

      const writes = await db.replaceAll(fresh, '2026-11-22T11:00:00.000Z');

      expect(writes).toMatchObject({ written: 2, deleted: 1, rewrote: false });
      const after = ridsOf(db);
      expect(after.size).toBe(ROWS);
      expect(after.has(gone.cidrId)).toBe(false);
      // Every unchanged row is the same row as before (a rewrite would have given each a new one).
      for (const policy of fresh) if (policy !== bought) expect(after.get(policy.cidrId), policy.cidrId).toBe(before.get(policy.cidrId));
      expect(db.fetchedAt).toBe('2026-11-22T11:00:00.000Z');
      expect(db.query({ ...query, text: 'zebra renamed' }).rows).toEqual([renamed]);
      expect(textTotal(db, old[ROWS - 1]!.policyName!.toLowerCase())).toBe(0);
      expect(textTotal(db, gone.cidrId)).toBe(0);
      expect(db.query({ ...query, text: 'bought since' }).rows).toEqual([bought]);
      expect(textTotal(db, 'oldtag')).toBe(ROWS - 2);
      checkTextIndex(file);
    } finally {
      db.close();
    }
  });

  it('that changes nothing writes no row and stamps its time; the same list with its rows in another order neither', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    try {
      const list = syntheticPolicies(ROWS, 'same');
      await db.replaceAll(list, '2026-11-22T10:00:00.000Z');
      const before = ridsOf(db);
      expect(await db.replaceAll(list, '2026-11-22T11:00:00.000Z')).toMatchObject({ written: 0, deleted: 0, rewrote: false });
      expect(await db.replaceAll([...list].reverse(), '2026-11-22T12:00:00.000Z')).toMatchObject({ written: 0, deleted: 0, rewrote: false });
      expect(ridsOf(db)).toEqual(before);
      expect(db.fetchedAt).toBe('2026-11-22T12:00:00.000Z');
      expect(textTotal(db, 'same')).toBe(ROWS);
    } finally {
      db.close();
    }
  });

  it('is read as the old list whole while it runs, then as the new one', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    try {
      const old = syntheticPolicies(ROWS, 'oldtag');
      await db.replaceAll(old, '2026-11-22T10:00:00.000Z');
      // A fifth of the rows renamed: under the share that rewrites all.
      const fresh = old.map((p, i) => (i % 5 === 0 ? { ...p, policyName: `newtag ${i}` } : p));
      const refresh = db.replaceAll(fresh, '2026-11-22T11:00:00.000Z');
      const readsMeanwhile = await readsWhileRefreshing(db, { count: ROWS, tag: 'oldtag', fetchedAt: '2026-11-22T10:00:00.000Z' }, 'newtag');
      expect(await refresh).toMatchObject({ written: ROWS / 5, deleted: 0, rewrote: false });
      // It yielded: reads ran between its slices.
      expect(readsMeanwhile).toBeGreaterThan(0);
      expect(textTotal(db, 'newtag')).toBe(ROWS / 5);
      expect(textTotal(db, 'oldtag')).toBe(ROWS - ROWS / 5);
      checkTextIndex(file);
    } finally {
      db.close();
    }
  });

  it('that fails part way keeps the old list whole and its index, and the next one goes through', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    try {
      const old = syntheticPolicies(ROWS, 'oldtag');
      await db.replaceAll(old, '2026-11-22T10:00:00.000Z');
      const before = ridsOf(db);
      const fresh: CapacityRow[] = old.map((p, i) => (i % 10 === 0 ? { ...p, policyName: `newtag ${i}` } : p));
      // A row the database refuses (no id) among the last changed ones: the changed rows before it are already written.
      fresh[ROWS - 10] = { ...fresh[ROWS - 10]!, cidrId: undefined } as unknown as CapacityRow;
      await expect(db.replaceAll(fresh, '2026-11-22T11:00:00.000Z')).rejects.toThrow();
      expect(db.writing).toBe(false);
      expect(ridsOf(db)).toEqual(before);
      expect(db.fetchedAt).toBe('2026-11-22T10:00:00.000Z');
      expect(textTotal(db, 'oldtag')).toBe(ROWS);
      expect(textTotal(db, 'newtag')).toBe(0);
      checkTextIndex(file);
      fresh[ROWS - 10] = { ...old[ROWS - 10]!, policyName: `newtag ${ROWS - 10}` };
      expect(await db.replaceAll(fresh, '2026-11-22T12:00:00.000Z')).toMatchObject({ written: ROWS / 10, deleted: 0, rewrote: false });
      expect(textTotal(db, 'newtag')).toBe(ROWS / 10);
    } finally {
      db.close();
    }
  });

  it('keeps as written the rows it is told were written through since it began: changed ones, and one the list does not hold yet', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    try {
      const old = syntheticPolicies(ROWS, 'oldtag');
      await db.replaceAll(old, '2026-11-22T10:00:00.000Z');
      const canceled = { ...old[42]!, policyStatus: 'CANCELED', policyName: 'canceled while the pages were read' };
      const bought = { ...old[0]!, cidrId: 'sc_bought_meanwhile', policyName: 'bought while the pages were read' };
      db.upsert(canceled);
      db.upsert(bought);
      // The list read before the cancel and the purchase: its page still shows the policy as it was.
      const writtenThrough = new Map([canceled, bought].map((policy) => [policy.cidrId, policy]));
      const writes = await db.replaceAll(old, '2026-11-22T11:00:00.000Z', [], writtenThrough);
      expect(writes).toMatchObject({ written: 0, deleted: 0, rewrote: false });
      expect(db.query({ ...query, text: 'canceled while' }).rows).toEqual([canceled]);
      expect(db.query({ ...query, text: 'bought while' }).rows).toEqual([bought]);
      expect(db.count).toBe(ROWS + 1);
      // Kept also when the list changed so much that it is rewritten whole.
      const rewritten = syntheticPolicies(ROWS, 'newtag');
      expect((await db.replaceAll(rewritten, '2026-11-22T12:00:00.000Z', [], writtenThrough)).rewrote).toBe(true);
      expect(db.query({ ...query, text: 'canceled while' }).rows).toEqual([canceled]);
      expect(db.query({ ...query, text: 'bought while' }).rows).toEqual([bought]);
      expect(textTotal(db, 'newtag')).toBe(ROWS - 1);
      checkTextIndex(file);
    } finally {
      db.close();
    }
  });

  it('of a list holding an id twice (offset paging shifted mid-fetch) keeps the later page’s copy, whether it writes the changed rows or the whole list; hostile ids too', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    try {
      const hostileIds = ['__proto__', 'constructor', 'hasOwnProperty', `sc_${'9'.repeat(600)}`, 'sc_\u202e\u0000'];
      const old = syntheticPolicies(ROWS, 'oldtag').map((p, i) => (i < hostileIds.length ? { ...p, cidrId: hostileIds[i]! } : p));
      await db.replaceAll(old, '2026-11-22T10:00:00.000Z');
      /**
       * The list as a refresh writes it (newest first, the service's pages reversed): each of `ids` twice, its
       * later page's copy at the head, its earlier page's copy where it was; both differ from the stored row.
       */
      const twice = (list: readonly CapacityRow[], ids: readonly string[]) => {
        const byId = new Map(list.map((p) => [p.cidrId, p]));
        const later = ids.map((id) => ({ ...byId.get(id)!, policyName: `later page copy ${id.length}` }));
        const earlier = list.map((p) => (ids.includes(p.cidrId) ? { ...p, policyName: `earlier page copy ${p.cidrId.length}` } : p));
        return { later, list: [...later, ...earlier] };
      };
      const readBack = (id: string) => db.query({ ...query, limit: ROWS + 1 }).rows.find((p) => p.cidrId === id);

      // Changed rows only: the two copies of each differ from the stored row, so both were written, the earlier last.
      const few = twice(old, [...hostileIds, old[100]!.cidrId]);
      const diffed = await db.replaceAll(few.list, '2026-11-22T11:00:00.000Z');
      expect(diffed).toMatchObject({ written: few.later.length, deleted: 0, rewrote: false });
      for (const copy of few.later) expect(readBack(copy.cidrId)).toEqual(copy);
      expect(db.count).toBe(ROWS);
      expect(textTotal(db, 'earlier page copy')).toBe(0);

      // The whole list rewritten: it wrote every copy in order, so the earlier one, last, stood.
      const renamed = syntheticPolicies(ROWS, 'newtag').map((p, i) => (i < hostileIds.length ? { ...p, cidrId: hostileIds[i]! } : p));
      const many = twice(renamed, [...hostileIds, renamed[200]!.cidrId]);
      expect((await db.replaceAll(many.list, '2026-11-22T12:00:00.000Z')).rewrote).toBe(true);
      for (const copy of many.later) expect(readBack(copy.cidrId)).toEqual(copy);
      expect(db.count).toBe(ROWS);
      expect(textTotal(db, 'earlier page copy')).toBe(0);
      expect(textTotal(db, 'later page copy')).toBe(many.later.length);
      checkTextIndex(file);
    } finally {
      db.close();
    }
  });

  it('moves the changed rows within the slim rows in memory (not read again), answering as a fresh read of the copy does', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'replica.db'), key);
    try {
      const replica = new CapacityReplica(db);
      const old = syntheticPolicies(ROWS, 'oldtag');
      await replica.replaceAll(old, '2026-11-22T10:00:00.000Z');
      replica.load();
      expect(replica.query({ ...query, limit: 1 }).rows[0]?.cidrId).toBe(old[ROWS - 1]!.cidrId);
      const moved = { ...old[5]!, policyName: 'moved to the front', createdDate: '2027-01-01T00:00:00.000Z' };
      const renamed = { ...old[6]!, policyName: '__proto__ constructor \u202e' + 'x'.repeat(500) };
      const fresh = old.map((p) => (p.cidrId === moved.cidrId ? moved : p.cidrId === renamed.cidrId ? renamed : p));
      expect(await replica.replaceAll(fresh, '2026-11-22T11:00:00.000Z')).toMatchObject({ written: 2, deleted: 0, rewrote: false });
      expect(replica.loaded).toBe(true);
      expect(replica.query({ ...query, limit: 1 }).rows).toEqual([moved]);
      expect(replica.query({ ...query, text: 'moved to the front' }).rows).toEqual([moved]);
      expect(replica.query({ ...query, text: '__proto__ constructor' }).rows).toEqual([renamed]);
      expect(replica.query({ ...query, text: 'oldtag', limit: 10_000 }).total).toBe(ROWS - 2);
      const readAgain = new CapacityReplica(db);
      readAgain.load();
      for (const asked of [
        { ...query, limit: 200 },
        { ...query, sortBy: 'policyName', sortOrder: 'asc', limit: 200 },
        { ...query, text: 'reservation 1', sortBy: 'ourPrice', limit: 200 },
      ] as const) {
        expect(replica.query(asked).rows.map((r) => r.cidrId)).toEqual(readAgain.query(asked).rows.map((r) => r.cidrId));
      }
      // One gone: the rows in memory are read again.
      await replica.replaceAll(fresh.slice(1), '2026-11-22T12:00:00.000Z');
      expect(replica.loaded).toBe(false);
      expect(replica.count).toBe(ROWS - 1);
    } finally {
      db.close();
    }
  });

  it('killed in the middle of its write (every changed row but one written) leaves the old list whole, with its text index', async () => {
    const file = join(dir, 'crash.db');
    const writer = await bundleScript('test/support/replica-diff-writer-child.ts', dir);
    for (let round = 1; round <= 3; round += 1) {
      const child = spawn(process.execPath, [writer, file, key.toString('hex'), String(round)], { stdio: ['ignore', 'pipe', 'inherit'], env: bundledScriptEnv() });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const said = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
      expect(said).toBe('mid\n');
      child.kill('SIGKILL');
      expect(await exited).toBeNull();
      const db = CapacityReplicaDb.open(file, key);
      try {
        expect(db.count).toBe(3_000);
        // The list of the refresh before (version 0 on the first round, the parent's refresh on the next).
        expect(textTotal(db, `v${round - 1} renamed`)).toBe(600);
        expect(textTotal(db, `v${round} renamed`)).toBe(0);
        expect(textTotal(db, 'base')).toBe(2_400);
        checkTextIndex(file);
        // And the next refresh over it goes through, writing what changed.
        const next = syntheticPolicies(3_000, 'base').map((p, i) => (i % 5 === 0 ? { ...p, policyName: `v${round} renamed ${i}` } : p));
        expect(await db.replaceAll(next, new Date().toISOString())).toMatchObject({ written: 600, deleted: 0, rewrote: false });
      } finally {
        db.close();
      }
    }
  }, 300_000);

  it('over a copy written before the record hash was kept rewrites it whole once, then only what changes', async () => {
    const file = join(dir, 'replica.db');
    const db = CapacityReplicaDb.open(file, key);
    const list = syntheticPolicies(ROWS, 'same');
    try {
      await db.replaceAll(list, '2026-11-22T10:00:00.000Z');
    } finally {
      db.close();
    }
    // As an older version left it: the column there, empty.
    const older = openKeyed(file, key, 2 * 1024);
    older.exec('UPDATE capacities SET body_hash = NULL');
    older.close();
    const reopened = CapacityReplicaDb.open(file, key);
    try {
      expect((await reopened.replaceAll(list, '2026-11-22T11:00:00.000Z')).rewrote).toBe(true);
      expect(await reopened.replaceAll(list, '2026-11-22T12:00:00.000Z')).toMatchObject({ written: 0, deleted: 0, rewrote: false });
      expect(textTotal(reopened, 'same')).toBe(ROWS);
    } finally {
      reopened.close();
    }
  });
});

/** A full garbage collection on demand (the tests that look at what a refresh still holds). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** The bench user's session over the sandbox, with a hook run before each of the refresh's calls and one given each answer. */
async function sandboxSession(scale: number) {
  const sandbox = await startSandbox({ scale });
  const client = new ApiClient({ baseUrl: sandbox.url });
  const owner = { profileId: 'diff', username: 'diff@example.com' };
  const user = SANDBOX_USERS[0]!;
  const token = (await client.call('signIn', { body: { username: user.username, password: user.password } })).access_token;
  const hooks = { beforeCall: async () => undefined as void, answered: (_answer: unknown) => undefined as void };
  const deps: ReplicaSyncDeps = {
    session: {
      status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
      authorized: async (work) => {
        await hooks.beforeCall();
        const answer = await work(client, token);
        hooks.answered(answer);
        return answer;
      },
    },
    logger: { warn: () => undefined },
  };
  const close = async () => {
    await client.close();
    await sandbox.close();
  };
  return { client, token, owner, deps, hooks, close };
}

/**
 * The list rows of a list page's answer (a detail's answer has none) as the main thread got them: each row, or,
 * of a page read and compared on the list-page thread ([id, hash, row?] each), the rows that came with theirs.
 */
function listRows(answer: unknown): readonly object[] {
  const data = typeof answer === 'object' && answer !== null && 'data' in answer ? (answer as { data: unknown }).data : null;
  if (!Array.isArray(data)) return [];
  const rows = data.map((item: unknown) => (Array.isArray(item) ? item[2] : item));
  return rows.filter((row): row is object => typeof row === 'object' && row !== null && 'cidrId' in row);
}

describe('a refresh over a copy compared page by page as its pages come (refreshReplica, the sandbox over HTTP)', () => {
  it('holds no fetched row equal to the stored one once its pages are in: only the rows that differ are kept for the write', async () => {
    const gc = collector();
    const service = await sandboxSession(3_000);
    const replica = await Replica.open({ dataDir: dir, secrets: new FixedSecretStore(), owner: service.owner, verifyDelayMs: 0 });
    try {
      const first = await refreshReplica(replica, service.deps, new AbortController().signal, () => undefined);
      expect(first.capacities).toBeGreaterThan(1_500);
      const changed = (await service.client.call('listCapacities', { token: service.token, query: { page: 1, pageSize: 5 } })).data;
      for (const policy of changed) {
        const enabled = !policy.capacityConfiguration.autoRenewalEnabled;
        await service.client.call('setAutoRenewal', { token: service.token, body: { cidrId: policy.cidrId, autoRenewalEnabled: enabled, frequency: enabled ? 'ONE_MONTH' : null } });
      }
      const fetched: WeakRef<object>[] = [];
      service.hooks.answered = (answer) => {
        for (const row of listRows(answer)) fetched.push(new WeakRef(row));
      };
      /** Of the rows the list's pages answered, how many are still held once the details are being read. */
      let stillHeld = -1;
      await refreshReplica(replica, service.deps, new AbortController().signal, (progress) => {
        if (progress.phase !== 'details' || stillHeld >= 0) return;
        gc();
        stillHeld = fetched.filter((ref) => ref.deref() !== undefined).length;
      });
      // The main thread got the rows that differ, at least (all of them when its pages are read here; only those when
      // they are read and compared on the list-page thread).
      expect(fetched.length).toBeGreaterThanOrEqual(changed.length);
      // Held whole, every row of the list was still there (1,795 of 1,800: the whole list, until the refresh's end);
      // now the rows that differ, and at most a page's worth still referenced by the client's last answers.
      expect(stillHeld).toBeGreaterThanOrEqual(0);
      expect(stillHeld).toBeLessThanOrEqual(changed.length + 100);
      const window = await capacityWindow(replica, { text: changed[0]!.cidrId, status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 10 });
      expect(window?.rows[0]?.capacityConfiguration?.autoRenewalEnabled).toBe(!changed[0]!.capacityConfiguration.autoRenewalEnabled);
    } finally {
      await replica.close();
      await service.close();
    }
  }, 120_000);

  it('writes the service’s list whole when the copy changed behind it while its pages were read, or most of the copy differs', async () => {
    const service = await sandboxSession(1_000);
    const replica = await Replica.open({ dataDir: dir, secrets: new FixedSecretStore(), owner: service.owner, verifyDelayMs: 0 });
    try {
      const first = await refreshReplica(replica, service.deps, new AbortController().signal, () => undefined);
      const served = (await readKind(replica, 'capacities'))!.value;
      const window = (text: string) => capacityWindow(replica, { text, status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 10 });
      /** The copy rewritten with `count` of its rows renamed, as no refresh or write-through writes it. */
      const renamed = (count: number) => writeCapacities(replica, served.map((p, i) => (i < count ? { ...p, policyName: `renamed behind ${i}` } : p)), new Date());
      // (a) Ten rows renamed behind the refresh once it has looked at the copy (as its first page is asked for):
      // the pages equal the copy as it was, so those rows were not held, and the copy as it is differs.
      let renamedMeanwhile = false;
      service.hooks.beforeCall = async () => {
        if (renamedMeanwhile) return;
        renamedMeanwhile = true;
        await renamed(10);
      };
      const second = await refreshReplica(replica, service.deps, new AbortController().signal, () => undefined);
      expect(renamedMeanwhile).toBe(true);
      expect(second.capacities).toBe(first.capacities);
      expect((await window('renamed behind'))?.total).toBe(0);
      expect((await readKind(replica, 'capacities'))!.value).toEqual(served);
      // (b) Half the copy differs from the service before the refresh: the whole list is written.
      service.hooks.beforeCall = async () => undefined;
      await renamed(Math.floor(served.length / 2));
      expect((await window('renamed behind'))?.total).toBe(Math.floor(served.length / 2));
      await refreshReplica(replica, service.deps, new AbortController().signal, () => undefined);
      expect((await window('renamed behind'))?.total).toBe(0);
      expect((await readKind(replica, 'capacities'))!.value).toEqual(served);
    } finally {
      await replica.close();
      await service.close();
    }
  }, 120_000);
});

describe('a refresh as the app runs it (refreshReplica, the sandbox over HTTP)', () => {
  it('keeps a cancel and a purchase written through while its list pages were read, though the page it read is older', async () => {
    const sandbox = await startSandbox({ scale: 400 });
    const client = new ApiClient({ baseUrl: sandbox.url });
    const owner = { profileId: 'diff', username: 'diff@example.com' };
    const replica = await Replica.open({ dataDir: dir, secrets: new FixedSecretStore(), owner, verifyDelayMs: 0 });
    try {
      const user = SANDBOX_USERS[0]!;
      const token = (await client.call('signIn', { body: { username: user.username, password: user.password } })).access_token;
      /** Runs before each call of the refresh's, so a test can act between its requests. */
      let beforeCall: () => Promise<void> = async () => undefined;
      const deps: ReplicaSyncDeps = {
        session: {
          status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
          authorized: async (work) => {
            await beforeCall();
            return work(client, token);
          },
        },
        logger: { warn: () => undefined },
      };
      const first = await refreshReplica(replica, deps, new AbortController().signal, () => undefined);
      expect(first.capacities).toBeGreaterThan(100);
      const stored = (await readKind(replica, 'capacities'))!.value;
      const canceled = { ...CapacityPolicy.parse(stored[10]), policyStatus: 'CANCELED' as const, policyName: 'canceled while the pages were read' };
      const bought = { ...CapacityPolicy.parse(stored[11]), cidrId: 'sc_bought_meanwhile', policyName: 'bought while the pages were read' };
      let wroteThrough = false;
      // Written through as the first list page of the second refresh is asked for: that page, and every other, predates neither.
      beforeCall = async () => {
        if (wroteThrough) return;
        wroteThrough = true;
        expect(await upsertCapacity(replica, canceled)).toBe(true);
        expect(await upsertCapacity(replica, bought)).toBe(true);
      };
      const second = await refreshReplica(replica, deps, new AbortController().signal, () => undefined);
      expect(wroteThrough).toBe(true);
      expect(second.capacities).toBe(first.capacities);
      const window = (text: string) => capacityWindow(replica, { text, status: undefined, sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 10 });
      expect((await window('canceled while'))?.rows).toEqual([canceled]);
      expect((await window('bought while'))?.rows).toEqual([bought]);
      expect((await readKind(replica, 'capacities'))!.value).toHaveLength(first.capacities + 1);
      // The next refresh, with nothing written through meanwhile, takes the service's list as it is.
      beforeCall = async () => undefined;
      await refreshReplica(replica, deps, new AbortController().signal, () => undefined);
      expect((await window('canceled while'))?.total).toBe(0);
      expect((await window('bought while'))?.total).toBe(0);
      expect((await readKind(replica, 'capacities'))!.value).toHaveLength(first.capacities);
    } finally {
      await replica.close();
      await client.close();
      await sandbox.close();
    }
  }, 120_000);
});
