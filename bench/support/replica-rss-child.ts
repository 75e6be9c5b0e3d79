/**
 * Child process of the replica benchmark: a bare Node process that opens one
 * owner's replica through OfflineService exactly as the main process does,
 * loads its slim rows, answers a list window, a search and the overview, and
 * prints its resident memory. Arguments: data folder, base64 key.
 */
import { OfflineService } from '../../electron/services/replica/current-replica.js';
import { cacheKeyService } from '../../electron/services/replica/replica.js';
import { AppEvents } from '../../electron/services/events.js';
import { FixedSecretStore } from '../../test/support/fixed-key-store.js';

const [dataDir, key, profileId, username] = process.argv.slice(2) as [string, string, string, string];
const secrets = new FixedSecretStore({ [FixedSecretStore.key(cacheKeyService(profileId), username)]: key });
const offline = new OfflineService({
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
await (await offline.cache())!.warm();
await offline.queryCapacities({ limit: 100 });
await offline.queryCapacities({ text: 'm5', sortBy: 'ourPrice', limit: 100 });
await offline.capacityOverview(new Date());
globalThis.gc?.();
const { rss, heapUsed } = process.memoryUsage();
process.stdout.write(`${JSON.stringify({ rss, heapUsed, rssBefore })}\n`);
process.exit(0);
