import { CurrentReplica, type CurrentReplicaDeps } from '../../electron/services/replica/current-replica.js';
import { AppEvents } from '../../electron/services/events.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';

/** The benchmarks' owner of a replica: one signed-in user who never reaches the service. */
export const BENCH_OWNER = { profileId: 'bench', username: 'bench@example.com' } as const;

/** The offline service over a data folder as the app builds it, for that owner (`more`: deps a test sets). */
export function benchCurrentReplica(dataDir: string, secrets: SecretStore, more: Partial<CurrentReplicaDeps> = {}): CurrentReplica {
  return new CurrentReplica({
    dataDir,
    secrets,
    session: {
      status: () => ({ signedIn: true, profileId: BENCH_OWNER.profileId, username: BENCH_OWNER.username, keychain: { kind: 'keychain' as const } }),
      authorized: () => Promise.reject(new Error('the benchmark never calls the service')),
    },
    events: new AppEvents(),
    lastUsername: () => BENCH_OWNER.username,
    logger: { warn: () => undefined },
    ...more,
  });
}
