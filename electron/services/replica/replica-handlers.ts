import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { OfflineService } from './current-replica.js';

type OfflineChannel = Extract<Channel, `offline.${string}`>;

/** Managing the local replica: its status, refreshing it, reviewing it without the service, wiping it. */
export function createOfflineHandlers(offline: OfflineService): Pick<Handlers, OfflineChannel> {
  return {
    'offline.status': () => offline.status(),
    'offline.enter': ({ profileId }) => offline.enterOffline(profileId),
    'offline.leave': async () => {
      offline.leaveOffline();
      return null;
    },
    'offline.sync': () => offline.sync(),
    'offline.cancelSync': async () => offline.cancelSync(),
    'offline.wipe': () => offline.wipe(),
  };
}
