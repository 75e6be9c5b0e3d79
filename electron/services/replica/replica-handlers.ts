import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { CurrentReplica } from './current-replica.js';

/** The channels keep the `offline.` prefix the renderer and the audit log know them by (see README, "The replica"). */
type ReplicaChannel = Extract<Channel, `offline.${string}`>;

/** Managing the replica: its status, refreshing it, reviewing it without the service, wiping it. */
export function createReplicaHandlers(replica: CurrentReplica): Pick<Handlers, ReplicaChannel> {
  return {
    'offline.status': () => replica.status(),
    'offline.enter': ({ profileId }) => replica.enterOffline(profileId),
    'offline.leave': async () => {
      replica.leaveOffline();
      return null;
    },
    'offline.sync': () => replica.refresh.run(),
    'offline.cancelSync': async () => replica.refresh.cancel(),
    'offline.wipe': () => replica.wipe(),
  };
}
