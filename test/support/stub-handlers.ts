import { CHANNELS } from '../../shared/ipc/channels.js';
import type { Handlers } from '../../shared/ipc/contract.js';

/**
 * Handlers for tests of the IPC plumbing itself (dispatch, the hosts): the
 * given ones, and for every other channel one that fails loudly if called.
 */
export function stubHandlers(given: Partial<Handlers>): Handlers {
  const all: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const channel of CHANNELS) {
    all[channel] = async () => {
      throw new Error(`handler ${channel} was called but not stubbed`);
    };
  }
  return { ...all, ...given } as Handlers;
}
