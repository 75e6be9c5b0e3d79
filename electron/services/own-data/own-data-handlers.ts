import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { OwnDataService } from './own-data-service.js';

type OwnDataChannel = Extract<Channel, `owndata.${string}`>;

/** The account manager's own data as a whole: removing it at their confirmed request. */
export function createOwnDataHandlers(ownData: Pick<OwnDataService, 'wipe'>): Pick<Handlers, OwnDataChannel> {
  return {
    'owndata.wipe': async () => {
      await ownData.wipe();
      return null;
    },
  };
}
