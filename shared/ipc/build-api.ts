import { CHANNELS, EVENTS, splitChannel, type Channel, type EventName } from './channels.js';
import type { DeskApi } from './api-shape.js';
import type { Result } from './result.js';

export type Invoke = (channel: Channel, input: unknown) => Promise<Result<unknown>>;
export type Subscribe = (event: EventName, listener: (payload: unknown) => void) => () => void;

/**
 * Builds `window.api` from a transport: one named method per contract channel
 * and nothing else, so the renderer can never name a channel of its own.
 * Both the Electron preload and the browser host's shim use it.
 */
export function buildApi(invoke: Invoke, subscribe: Subscribe): DeskApi {
  const groups: Record<string, Record<string, (input?: unknown) => Promise<Result<unknown>>>> = {};
  for (const channel of CHANNELS) {
    const [group, method] = splitChannel(channel);
    const methods = (groups[group] ??= {});
    methods[method] = (input?: unknown) => invoke(channel, input);
  }
  for (const methods of Object.values(groups)) Object.freeze(methods);
  const on = (event: EventName, listener: (payload: unknown) => void): (() => void) => {
    if (!(EVENTS as readonly string[]).includes(event)) throw new Error(`Unknown event ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    return subscribe(event, listener);
  };
  return Object.freeze({ ...groups, on }) as unknown as DeskApi;
}
