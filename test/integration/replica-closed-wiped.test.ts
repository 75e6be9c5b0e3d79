import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { AppEvents } from '../../electron/services/events.js';
import { CurrentReplica } from '../../electron/services/replica/current-replica.js';
import { capacityCount } from '../../electron/services/replica/replica-reads.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/**
 * A read is handed the replica, then awaits something else (own data, a second read) before it reads.
 * If the replica is closed or wiped meanwhile, that read must not open its files again: after a wipe the
 * reopened file was deleted under it, so the wiped list kept being served and the next sync was written
 * into a file that no longer existed (gone at the next launch); after a close the files came back.
 */
const owner = { profileId: 'sandbox', username: 'replica@example.com' };
const dirs: string[] = [];
const opened: CurrentReplica[] = [];
afterEach(async () => {
  for (const current of opened.splice(0)) await current.close();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function filledReplica() {
  const dataDir = await mkdtemp(join(tmpdir(), 'cd-closed-wiped-'));
  dirs.push(dataDir);
  const current = new CurrentReplica({
    dataDir,
    secrets: new FixedSecretStore(),
    session: {
      status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
      authorized: async () => {
        throw new Error('no service in this test');
      },
    },
    events: new AppEvents(),
    lastUsername: () => owner.username,
    logger: { warn: () => undefined },
    afterFirstScreen: () => Promise.resolve(),
    verifyDelayMs: 0,
  });
  opened.push(current);
  const replica = (await current.replica())!;
  await writeKind(replica, 'capacities', syntheticPolicies(300), new Date());
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const lateRead = current.read(async (handed) => {
    await gate;
    return capacityCount(handed);
  });
  await nextTurn();
  return { current, replica, release, lateRead };
}

it('a read landing while the sign-out wipe runs serves nothing, and the next sync is written to a file on disk', async () => {
  const { current, replica, release, lateRead } = await filledReplica();
  const epoch = replica.epoch;
  const wiped = current.wipe();
  // The wipe has taken the copy out of use and is closing it: the read under way goes on now.
  while (replica.epoch === epoch) await Promise.resolve();
  release();
  await lateRead;
  expect((await wiped).capacityCount).toBe(0);
  expect((await current.read((r) => capacityCount(r))) ?? 0).toBe(0);
  // The next sign-in's sync lands in the folder, where the next launch finds it.
  await writeKind(replica, 'capacities', syntheticPolicies(5), new Date());
  expect(await current.read((r) => capacityCount(r))).toBe(5);
  expect(existsSync(join(replica.dir, 'replica.db'))).toBe(true);
});

it('a read handed the replica before close does not open its files again after close', async () => {
  const { current, replica, release, lateRead } = await filledReplica();
  await current.close();
  const files = async () => (await readdir(replica.dir)).sort();
  const afterClose = await files();
  release();
  expect((await lateRead) ?? 0).toBe(0);
  expect(await files()).toEqual(afterClose);
});
