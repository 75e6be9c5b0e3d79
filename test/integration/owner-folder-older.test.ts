/**
 * Issue 26's open edge after cust16 (day17): an owner whose profile id holds a line break (a settings file written by
 * hand) had its folder renamed by cust16 (`ownerFolder` hashes the JSON of the pair for it), so the copy and the own
 * data kept under the older name were on disk and no longer found. Real SQLCipher files, the real Replica and
 * OwnDataStore: the older folder is made by moving a folder the owner wrote to the name the versions before gave it.
 * The older name is shared with another owner (profile "hand", user "written\nalex"): that owner's folder must stay
 * theirs.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/own-data/activity.js';
import { OwnDataStore } from '../../electron/services/own-data/own-data-store.js';
import { ownerFolder, type Owner } from '../../electron/services/platform/owner.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { readCapacities } from '../../electron/services/replica/replica-reads.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

/** The profile id with a break, and the owner whose older folder name is the same text. */
const HAND: Owner = { profileId: 'hand\nwritten', username: 'alex' };
const OTHER: Owner = { profileId: 'hand', username: 'written\nalex' };

/** The name every version before cust16 gave an owner's folder. */
const olderName = (owner: Owner) => createHash('sha256').update(`${owner.profileId}\n${owner.username}`).digest('hex').slice(0, 24);

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function note(owner: Owner, cidrId: string, fee: number): ActivityEntry {
  return {
    policyKind: 'capacity',
    cidrId,
    action: 'cancel',
    outcome: 'succeeded',
    at: new Date().toISOString(),
    username: owner.username,
    profileId: owner.profileId,
    reason: null,
    fee,
    price: null,
    autoRenewal: null,
    configured: [],
    eventId: null,
  };
}

/** Writes an activity entry and a copy of a capacity list for the owner, then moves both folders to the older name. */
async function keptByAnOlderVersion(dataDir: string, secrets: FixedSecretStore, owner: Owner, fee: number, policies: number): Promise<void> {
  const own = await OwnDataStore.open({ dataDir, secrets, owner });
  await own.appendActivity(note(owner, 'sc_1', fee));
  await own.close();
  const copy = await Replica.open({ dataDir, secrets, owner });
  await writeKind(copy, 'capacities', syntheticPolicies(policies));
  await copy.close();
  for (const root of ['own', 'cache']) {
    if (ownerFolder(owner) !== olderName(owner)) await rename(join(dataDir, root, ownerFolder(owner)), join(dataDir, root, olderName(owner)));
  }
}

async function found(dataDir: string, secrets: FixedSecretStore, owner: Owner): Promise<{ fees: (number | null)[]; policies: number }> {
  const own = await OwnDataStore.open({ dataDir, secrets, owner });
  const fees = (await own.activity('capacity', 'sc_1')).map((entry) => entry.fee);
  await own.close();
  const copy = await Replica.open({ dataDir, secrets, owner });
  const policies = (await readCapacities(copy))?.value.length ?? 0;
  await copy.close();
  return { fees, policies };
}

describe('an owner whose profile id holds a line break (day17)', () => {
  it('finds the copy and the own data kept under the folder name of the versions before cust16', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cd-older-folder-'));
    dirs.push(dataDir);
    const secrets = new FixedSecretStore();
    await keptByAnOlderVersion(dataDir, secrets, HAND, 7, 5);
    expect(existsSync(join(dataDir, 'own', olderName(HAND)))).toBe(true);

    expect(await found(dataDir, secrets, HAND)).toEqual({ fees: [7], policies: 5 });
    // Moved to the owner's folder, once: the older name is free again.
    expect(existsSync(join(dataDir, 'own', ownerFolder(HAND)))).toBe(true);
    expect(existsSync(join(dataDir, 'cache', olderName(HAND)))).toBe(false);
    expect(await found(dataDir, secrets, HAND)).toEqual({ fees: [7], policies: 5 });
  });

  it('leaves the folder of the other owner who had the same older name as theirs', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cd-older-folder-'));
    dirs.push(dataDir);
    const secrets = new FixedSecretStore();
    // The other owner's folder name never changed: it is the older name of HAND's.
    expect(ownerFolder(OTHER)).toBe(olderName(HAND));
    // HAND has keys (an earlier run) and no folder of its own: only its key tells the older folder is not its.
    await found(dataDir, secrets, HAND);
    for (const root of ['own', 'cache']) await rm(join(dataDir, root, ownerFolder(HAND)), { recursive: true, force: true });
    await keptByAnOlderVersion(dataDir, secrets, OTHER, 3, 4);
    expect(await found(dataDir, secrets, HAND)).toEqual({ fees: [], policies: 0 });
    expect(await found(dataDir, secrets, OTHER)).toEqual({ fees: [3], policies: 4 });
  });
});
