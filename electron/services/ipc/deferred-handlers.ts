import { CHANNELS, type Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';

/**
 * The contract's handlers before the services behind them exist: each call
 * waits for them. The Electron shell registers these and opens the window at
 * once, while the services start beside it (the keychain probe can take 5 s
 * on a Linux desktop without one); a start that fails makes every waiting
 * call fail with it.
 */
export function deferredHandlers(ready: Promise<Handlers>): Handlers {
  const handlers: Partial<Record<Channel, (input: never) => Promise<unknown>>> = {};
  for (const channel of CHANNELS) {
    handlers[channel] = async (input: never) => {
      const real = (await ready)[channel] as (input: never) => Promise<unknown>;
      return real(input);
    };
  }
  return handlers as Handlers;
}
