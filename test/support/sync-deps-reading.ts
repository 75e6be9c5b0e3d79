import type { ApiClient } from '../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../electron/services/api-client/errors.js';
import type { Owner } from '../../electron/services/platform/owner.js';
import type { ReplicaSyncDeps } from '../../electron/services/replica/replica-sync.js';

/**
 * A refresh's dependencies for `owner`, signed in with `token`: the real client, except that its reads are made by
 * `read` (a test's model of the service's pages, or a count of them); its other members are the client's own.
 * A read handed to a reader of its own (`readWith`: a refresh over the copy's pages, read on the list-page thread)
 * is made by `read` too, its answer handed to that reader as the JSON body the service would have sent.
 */
export function syncDepsReading(client: ApiClient, owner: Owner, token: string, read: ApiClient['read']): ReplicaSyncDeps {
  const readWith: ApiClient['readWith'] = async (name, options, reader) => {
    const answer = await read(name, options);
    const context = {
      params: (options.params ?? {}) as Readonly<Record<string, string>>,
      query: (options.query ?? {}) as Readonly<Record<string, unknown>>,
    };
    const done = await reader({ status: 200, body: Buffer.from(JSON.stringify(answer)), context, withDrift: false });
    if ('failure' in done) throw new ApiFailure(done.failure, 'unknown');
    return done.value;
  };
  const reading = new Proxy(client, {
    get: (target, property) => {
      if (property === 'read') return read;
      if (property === 'readWith') return readWith;
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
