import { buildApi } from '../../../shared/ipc/build-api.js';
import type { EventName } from '../../../shared/ipc/channels.js';
import type { Result } from '../../../shared/ipc/result.js';

/**
 * window.api for the browser host: the same named methods as the Electron
 * preload, carried by fetch to the loopback host (the session cookie rides
 * along), and push events by one EventSource.
 */
const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
let source: EventSource | null = null;

function ensureEventSource(): void {
  if (source) return;
  source = new EventSource('/events');
  source.onmessage = (message: MessageEvent<string>) => {
    const frame = JSON.parse(message.data) as { event: EventName; payload: unknown };
    for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
  };
}

async function invoke(channel: string, input: unknown): Promise<Result<unknown>> {
  try {
    const response = await fetch(`/ipc/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
      credentials: 'same-origin',
    });
    if (!response.ok) {
      return { ok: false, error: { kind: 'internal', message: `Capacity Desk's host refused the request (HTTP ${response.status}).` } };
    }
    return (await response.json()) as Result<unknown>;
  } catch {
    return { ok: false, error: { kind: 'internal', message: 'Capacity Desk is not running any more. Start it again.' } };
  }
}

const api = buildApi(invoke, (event, listener) => {
  ensureEventSource();
  let set = listeners.get(event);
  if (!set) listeners.set(event, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
});

Object.defineProperty(window, 'api', { value: api, writable: false, configurable: false, enumerable: true });
