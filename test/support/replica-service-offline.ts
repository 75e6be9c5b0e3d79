import { CurrentReplica, type CurrentReplicaDeps } from '../../electron/services/replica/current-replica.js';
import { createReplicaHandlers } from '../../electron/services/replica/replica-handlers.js';
import { AppEvents } from '../../electron/services/events.js';
import type { Logger } from '../../electron/services/logging/file-logger.js';
import type { Owner } from '../../electron/services/platform/owner.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import type { Handlers } from '../../shared/ipc/contract.js';

/**
 * The app's replica service over a copy on disk, signed in as `owner` with the service away (every call to it
 * fails with `refusal`), its check of a copy after opening not delayed; with its handlers, as both hosts dispatch them.
 */
export function replicaServiceOffline(options: {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly owner: Owner;
  readonly logger?: Pick<Logger, 'warn'>;
  readonly refusal?: string;
  readonly more?: Partial<CurrentReplicaDeps>;
}): { offline: CurrentReplica; handlers: Handlers } {
  const { owner } = options;
  const offline = new CurrentReplica({
    dataDir: options.dataDir,
    secrets: options.secrets,
    session: {
      status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
      authorized: async () => {
        throw new Error(options.refusal ?? 'the service is away');
      },
    },
    events: new AppEvents(),
    lastUsername: () => owner.username,
    logger: options.logger ?? { warn: () => undefined },
    verifyDelayMs: 0,
    ...options.more,
  });
  return { offline, handlers: createReplicaHandlers(offline) as unknown as Handlers };
}
