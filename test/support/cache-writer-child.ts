/**
 * Child process of the crash-safety test: writes the capacity cache over and
 * over, each version a list whose every item carries the version number, until
 * it is killed. Arguments: data folder, base64 cache key.
 */
import { Replica } from '../../electron/services/replica/replica.js';
import { replicaKeyService } from '../../electron/services/replica/replica.js';
import { FixedSecretStore } from './fixed-key-store.js';
import { syntheticPolicies } from './synthetic-policies.js';
import { CRASH_TEST_ROWS } from './crash-test-constants.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';

const [dataDir, key] = process.argv.slice(2) as [string, string];
const owner = { profileId: 'crash', username: 'crash@example.com' };
const secrets = new FixedSecretStore({ [FixedSecretStore.key(replicaKeyService(owner.profileId), owner.username)]: key });
const cache = await Replica.open({ dataDir, secrets, owner });
process.stdout.write('ready\n');
for (let version = 1; ; version += 1) {
  await writeKind(cache, 'capacities', syntheticPolicies(CRASH_TEST_ROWS, `v${version}`));
  // Tells the parent how long one whole write takes on this machine, now.
  process.stdout.write('wrote\n');
}
