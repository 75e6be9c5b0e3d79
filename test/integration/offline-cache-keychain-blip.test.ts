import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Replica } from '../../electron/services/replica/replica.js';
import { ResilientSecretStore } from '../../electron/services/secrets/resilient-secret-store.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { readCapacities } from '../../electron/services/replica/replica-reads.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';

/**
 * A keychain that fails for a moment (keyring locked, D-Bus timeout) while the
 * offline copy is opened must not cost the copy: its key is still in the
 * keychain and the next run reads it.
 */
const owner = { profileId: 'sandbox', username: 'alex.morgan@example.com' };
let dataDir = '';
/** Every copy the test opened: closed before the folder goes (left open, the first's checkpoint and the last's deferred check of every page wrote into it after the test). */
const opened: Replica[] = [];
async function openReplica(options: Parameters<typeof Replica.open>[0]): Promise<Replica> {
  const replica = await Replica.open(options);
  opened.push(replica);
  return replica;
}
afterEach(async () => {
  for (const replica of opened.splice(0)) await replica.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

describe('offline copy and a keychain that fails for a moment', () => {
  it('is left on disk untouched, and read in full by the next run', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cd-keychain-blip-'));
    const keychain = new FixedSecretStore();
    const first = await openReplica({ dataDir, secrets: keychain, owner });
    await writeKind(first, 'capacities', syntheticPolicies(300));
    const before = await filesUnder(join(dataDir, 'cache'));

    const failing: SecretStore = {
      status: { kind: 'keychain' },
      get: () => Promise.reject(new Error('Cannot create an item in a locked collection')),
      set: () => Promise.reject(new Error('Cannot create an item in a locked collection')),
      delete: () => Promise.reject(new Error('Cannot create an item in a locked collection')),
    };
    const blip = await openReplica({ dataDir, secrets: new ResilientSecretStore(failing), owner });
    expect(blip.persistent).toBe(false);
    expect(blip.unreadable).toBeNull();
    await writeKind(blip, 'capacities', syntheticPolicies(5, 'memory-only'));
    expect(await filesUnder(join(dataDir, 'cache'))).toEqual(before);

    const next = await openReplica({ dataDir, secrets: keychain, owner });
    const entry = await readCapacities(next);
    expect(entry?.value).toHaveLength(300);
    expect(next.unreadable).toBeNull();
  });
});
