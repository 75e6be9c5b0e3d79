import { existsSync } from 'node:fs';
import { rm, mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentReplica } from '../../electron/services/replica/current-replica.js';
import { Replica, replicaKeyService } from '../../electron/services/replica/replica.js';
import { capacityOverview, readRecord } from '../../electron/services/replica/replica-reads.js';
import { writeKind, writeRecord } from '../../electron/services/replica/replica-writes.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { readDatabaseKey } from '../../electron/services/secrets/database-key.js';
import type { Owner } from '../../electron/services/platform/owner.js';
import { dispatch } from '../../electron/services/ipc/dispatch.js';
import { CacheStatus, LocalCapacityWindow } from '../../shared/ipc/offline.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import type * as ReplicaFacts from '../../electron/services/replica/replica-facts.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { replicaServiceOffline } from '../support/replica-service-offline.js';
import { flipByte } from '../support/flip-byte.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/**
 * Branch trust13: the damaged-copy E2E once showed "0 policies" from a copy of 179, offline, with no notice. The
 * status the renderer reads to decide between "offline, showing the copy" and "the copy could not be read" was
 * answered from the copy while it was being checked (or declared unreadable): a copy changed behind the app's
 * back was served before its check of every page ended. These tests force each interleaving.
 */

/** Held by a test: the plain facts are read as a copy is declared unreadable (the declaration's first wait). */
const factsGate = vi.hoisted(() => ({ held: null as Promise<void> | null, reached: false }));
vi.mock('../../electron/services/replica/replica-facts.js', async (importOriginal) => {
  const actual = await importOriginal<typeof ReplicaFacts>();
  const readCopyFacts = async (dir: string) => {
    factsGate.reached = factsGate.held !== null;
    await factsGate.held;
    return actual.readCopyFacts(dir);
  };
  return { ...actual, readCopyFacts };
});

const alex = SANDBOX_USERS[0]!;
const ROWS = 2500;
const owner: Owner = { profileId: 'sandbox', username: alex.username };
const dirs: string[] = [];
const services: CurrentReplica[] = [];

afterEach(async () => {
  factsGate.held = null;
  factsGate.reached = false;
  for (const service of services.splice(0)) await service.close();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A copy of ROWS policies written through the real replica, then closed (as at quit). */
async function writtenCopy(secrets: FixedSecretStore): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-damage-races-'));
  dirs.push(dataDir);
  const replica = await Replica.open({ dataDir, secrets, owner });
  await writeKind(replica, 'capacities', syntheticPolicies(ROWS).reverse());
  await writeKind(replica, 'accounts', alex.linkedAccounts.slice());
  await replica.close();
  return dataDir;
}

/**
 * A running app whose copy is being declared unreadable, held where the declaration reads the plain facts (the
 * database closed, the note not yet written) until `release`: declared by a list read that met a damaged page of the
 * records, through the database.
 */
async function declarationHeld() {
  const secrets = new FixedSecretStore();
  const app = await runningOver(await writtenCopy(secrets), secrets);
  let release = () => {};
  factsGate.held = new Promise<void>((resolve) => (release = resolve));
  await flipInRecords(join(app.replica.dir, 'replica.db'), secrets);
  const listed = app.list();
  await until(() => factsGate.reached);
  return { app, listed, release };
}

/** The running app's replica service over that copy, its check after opening done, its files noted by a read. */
async function runningOver(dataDir: string, secrets: FixedSecretStore) {
  const { offline, handlers } = replicaServiceOffline({ dataDir, secrets, owner });
  services.push(offline);
  const replica = (await offline.replica())!;
  await replica.verified();
  const first = LocalCapacityWindow.parse(await offline.queryCapacities({ limit: 50 }));
  expect(first.total).toBe(ROWS);
  await replica.settled();
  return {
    offline,
    replica,
    list: async () => LocalCapacityWindow.parse(await offline.queryCapacities({ limit: 50 })),
    status: async () => {
      const result = await dispatch(handlers, 'offline.status', undefined);
      if (!result.ok) throw new Error(result.error.message);
      return CacheStatus.parse(result.value);
    },
  };
}

/** Waits, a microtask at a time (nothing else of the app runs meanwhile), then a turn at a time, until `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; !done(); i += 1) await (i < 10_000 ? Promise.resolve() : new Promise((resolve) => setImmediate(resolve)));
}

/** Flips a byte in a middle leaf page of the whole records: the status's reads (the meta, the counts) never meet it. */
async function flipInRecords(file: string, secrets: FixedSecretStore): Promise<void> {
  const key = await readDatabaseKey(secrets, replicaKeyService(owner.profileId), owner.username);
  if (!(key instanceof Buffer)) throw new Error('the copy has no key');
  const db = openKeyed(file, key, 1024);
  let page: number;
  let pageSize: number;
  try {
    const pages = db.prepare(`SELECT pageno FROM dbstat WHERE name = 'capacity_bodies' AND pagetype = 'leaf' ORDER BY pageno`).pluck().all() as number[];
    page = pages[Math.floor(pages.length / 2)]!;
    pageSize = db.pragma('page_size', { simple: true }) as number;
  } finally {
    db.close();
  }
  await flipByte(file, (page - 1) * pageSize + pageSize / 2);
}

/** Unreadable as the renderer reads it: nothing of the copy, and why. */
function expectUnreadableStatus(status: CacheStatus): void {
  expect(status.unreadable).toMatchObject({ state: 'unreadable', reason: 'damaged', recordsLost: ROWS });
  expect(status.capacityCount).toBe(0);
  expect(status.fetchedAt).toEqual({});
}

describe('a copy changed on disk behind a running app (trust13)', () => {
  it('the status asked while the check that the change started is under way waits for it: never "readable, N policies" from the copy being checked', async () => {
    const secrets = new FixedSecretStore();
    const app = await runningOver(await writtenCopy(secrets), secrets);
    await flipInRecords(join(app.replica.dir, 'replica.db'), secrets);

    // A view's read (the overview's, at the click) meets the change: the copy is opened again and every page read.
    const epoch = app.replica.epoch;
    const overview = app.offline.read((replica) => capacityOverview(replica, new Date()));
    await until(() => app.replica.epoch !== epoch);
    // Meanwhile a read of the service fails and the renderer asks for the status to choose "offline, showing the
    // copy" or the notice (connectivity #unreachable): it was answered from the copy under check (CI: the banner,
    // "0 policies" from the list's unreadable answer after it, and no notice, since offline asks no more).
    expectUnreadableStatus(await app.status());
    expect(await overview).toBeNull();
    const list = await app.list();
    expect(list.total).toBe(0);
    expect(list.unreadable?.reason).toBe('damaged');
  });

  it('a write of the app after the change (the overview keeping its savings) does not take the changed file for its own: the next read checks it', async () => {
    const secrets = new FixedSecretStore();
    const app = await runningOver(await writtenCopy(secrets), secrets);
    await flipInRecords(join(app.replica.dir, 'replica.db'), secrets);

    // A small write lands in the log only (a checkpoint alone writes the file): the file's change is not ours.
    await writeRecord(app.replica, 'cyberLists', 'CUST-1001', []);
    expectUnreadableStatus(await app.status());
    expect((await app.list()).unreadable?.reason).toBe('damaged');
  });

  it('while a copy is being declared unreadable, a read neither opens its files again nor answers from them, and a write waits for the folder to be made again', async () => {
    const { app, listed, release } = await declarationHeld();

    // The declaration waits on the plain facts: the database is closed, the note not yet written.
    const status = app.status();
    const written = writeRecord(app.replica, 'cyberLists', 'CUST-1002', []);
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    expectUnreadableStatus(await status);
    expect((await listed).unreadable?.reason).toBe('damaged');
    await written;
    await app.replica.settled();
    // The write went into a fresh database made after the note, not into the damaged file being removed.
    expect((await readdir(app.replica.dir)).sort()).toEqual(expect.arrayContaining(['replica.db', 'unreadable.json']));
    expect(await app.replica.reading((open) => open.fetchedAt)).toBeNull();
    expect((await readRecord(app.replica, 'cyberLists', 'CUST-1002'))?.value).toEqual([]);
    expect((await stat(join(app.replica.dir, 'unreadable.json'))).isFile()).toBe(true);
  });

  it('a wipe asked while a copy is being declared unreadable (the shape of the own-data wipe race): the declaration lands first and goes with the folder; nothing is reported after the wipe', async () => {
    const { app, listed, release } = await declarationHeld();

    // The person signs out removing the copy, while the declaration waits on the plain facts.
    const wiped = app.offline.wipe();
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await wiped;
    await listed;
    // Before trust13 the declaration went on after the wipe: its note written into a folder made again, the copy
    // reported as unreadable after the person removed it (and again at the next start).
    expect(app.replica.unreadable).toBeNull();
    expect(existsSync(join(app.replica.dir, 'unreadable.json'))).toBe(false);
    expect((await app.status()).unreadable).toBeUndefined();
  });
});
