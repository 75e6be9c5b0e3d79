import { completeAccounts, completeCapacityView, completeCyberView } from '../../../shared/api/readers.js';
import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { OfflineService } from './offline-service.js';

type OfflineChannel = Extract<Channel, `offline.${string}`>;

/** The offline-review channels, answered from the encrypted cache. */
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
    'offline.capacities': (query) => offline.queryCapacities(query),
    'offline.capacityView': ({ cidrId }) => offline.capacityView(cidrId),
    'offline.accounts': () => offline.accounts(),
    'offline.cyberList': ({ customerId }) => offline.cyberList(customerId),
    'offline.cyberView': ({ cidrId }) => offline.cyberView(cidrId),
    'offline.wipe': () => offline.wipe(),
  };
}

/**
 * Wraps the online read handlers so that what the user opens is also kept for
 * offline review. A failed cache write never fails the online answer.
 */
export function withWriteThrough(handlers: Handlers, offline: OfflineService, report: (error: unknown) => void): Handlers {
  const keep = (work: Promise<void>) => void work.catch(report);
  return {
    ...handlers,
    'capacity.describe': async (input) => {
      const view = await handlers['capacity.describe'](input);
      // Only a view that read in full is kept: the offline views show the designed groups only.
      const complete = completeCapacityView(view);
      if (complete) keep(offline.rememberCapacityView(input.cidrId, complete));
      return view;
    },
    'cyber.view': async (input) => {
      const view = await handlers['cyber.view'](input);
      const complete = completeCyberView(view);
      if (complete) keep(offline.rememberCyberView(input.cidrId, complete));
      return view;
    },
    'accounts.list': async (input) => {
      const accounts = await handlers['accounts.list'](input);
      const complete = completeAccounts(accounts);
      if (complete) keep(offline.rememberAccounts(complete));
      return accounts;
    },
  };
}
