/**
 * Child process of the replica benchmark: a bare Node process that opens one
 * owner's replica through CurrentReplica exactly as the main process does,
 * loads its slim rows, answers a list window, a search and the overview, and
 * prints its resident memory. Arguments: data folder, base64 key.
 */
import { CurrentReplica } from '../../electron/services/replica/current-replica.js';
import { replicaKeyService } from '../../electron/services/replica/replica.js';
import { AppEvents } from '../../electron/services/events.js';
import { FixedSecretStore } from '../../test/support/fixed-key-store.js';
import { capacityOverview } from '../../electron/services/replica/replica-reads.js';

const [dataDir, key, profileId, username] = process.argv.slice(2) as [string, string, string, string];
const secrets = new FixedSecretStore({ [FixedSecretStore.key(replicaKeyService(profileId), username)]: key });
const offline = new CurrentReplica({
  dataDir,
  secrets,
  session: {
    status: () => ({ signedIn: true, profileId, username, keychain: { kind: 'keychain' as const } }),
    authorized: () => Promise.reject(new Error('the benchmark never calls the service')),
  },
  events: new AppEvents(),
  lastUsername: () => username,
  logger: { warn: () => undefined },
});
const rssBefore = process.memoryUsage().rss;
await (await offline.replica())!.warm();
await offline.queryCapacities({ limit: 100 });
await offline.queryCapacities({ text: 'm5', sortBy: 'ourPrice', limit: 100 });
await offline.read((r) => capacityOverview(r, new Date()));
globalThis.gc?.();
const { rss, heapUsed } = process.memoryUsage();
process.stdout.write(`${JSON.stringify({ rss, heapUsed, rssBefore })}\n`);
process.exit(0);
