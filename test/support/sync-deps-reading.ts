import type { ApiClient } from '../../electron/services/api-client/api-client.js';
import type { Owner } from '../../electron/services/platform/owner.js';
import type { ReplicaSyncDeps } from '../../electron/services/replica/replica-sync.js';

/**
 * A refresh's dependencies for `owner`, signed in with `token`: the real client, except that its reads are made by
 * `read` (a test's model of the service's pages, or a count of them); its other members are the client's own.
 */
export function syncDepsReading(client: ApiClient, owner: Owner, token: string, read: ApiClient['read']): ReplicaSyncDeps {
  const reading = new Proxy(client, {
    get: (target, property) => {
      if (property === 'read') return read;
      const found: unknown = Reflect.get(target, property, target);
      return typeof found === 'function' ? (found as (...args: unknown[]) => unknown).bind(target) : found;
    },
  });
  return {
    session: {
      status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
      authorized: (work) => work(reading, token),
    },
    logger: { warn: () => undefined },
  };
}
