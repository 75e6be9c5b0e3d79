/**
 * Child process of the refresh-stall benchmark: one first sync of the bench user's list into an empty data
 * folder, as the app runs it at a sign-in (refreshReplica), in a process that has done nothing else, as the
 * app's main process at that sign-in. Each run's memory is then its own: in one process, a run after the first
 * started from what the previous run's refresh over its copy left resident (426-440 MB at 100,000; see
 * docs/local-first.md, branch rss11). Prints one JSON line: the figures and the copy's key (a throw-away key of
 * the bench's own folder), so the parent opens the copy for the refresh over it.
 * Arguments: the sandbox's URL, the data folder; STALL_TRACE=1 as the bench's.
 */
import { Replica, replicaKeyService } from '../../electron/services/replica/replica.js';
import { refreshReplica } from '../../electron/services/replica/replica-sync.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { FixedSecretStore } from '../../test/support/fixed-key-store.js';
import { appLikeClient, BENCH_OWNER, benchSyncDeps, progressed, watched } from './watched-sync.js';

const [url, dataDir] = process.argv.slice(2) as [string, string];
const user = SANDBOX_USERS[0];
if (!user) throw new Error('no seeded user');
const client = appLikeClient(url);
const secrets = new FixedSecretStore();
try {
  const { access_token: token } = await client.call('signIn', { body: { username: user.username, password: user.password } });
  const cache = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER, verifyDelayMs: 600_000 });
  const first = await watched(() => refreshReplica(cache, benchSyncDeps(client, token), new AbortController().signal, progressed), 'first sync', process.env.STALL_TRACE === '1');
  // Its checkpoint is the thread's, not the main process's: settled before the parent's next figure, so they do not overlap.
  await cache.settled();
  await cache.close();
  const key = await secrets.get(replicaKeyService(BENCH_OWNER.profileId), BENCH_OWNER.username);
  process.stdout.write(`${JSON.stringify({ ms: first.ms, stallMs: first.stallMs, peakRssMb: first.peakRssMb, policies: first.value.capacities, key })}\n`);
} finally {
  await client.close();
}
