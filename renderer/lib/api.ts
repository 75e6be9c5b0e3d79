import type { DeskApi } from '../../shared/ipc/api-shape.js';
import type { Result } from '../../shared/ipc/result.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload or the browser host's shim; nothing else. */
    readonly api: DeskApi;
  }
}

export type ResultListener = (channel: string, result: Result<unknown>) => void;
const listeners = new Set<ResultListener>();

/**
 * Sees the result of every call (e.g. to notice the service is unreachable
 * wherever it happens). Returns the function that stops listening.
 */
export function onApiResult(listener: ResultListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function observed(raw: DeskApi): DeskApi {
  const wrapped: Record<string, unknown> = {};
  for (const [group, member] of Object.entries(raw) as Array<[string, unknown]>) {
    if (typeof member === 'function') {
      wrapped[group] = member;
      continue;
    }
    const methods: Record<string, (input?: unknown) => Promise<Result<unknown>>> = {};
    for (const [name, call] of Object.entries(member as Record<string, (input?: unknown) => Promise<Result<unknown>>>)) {
      methods[name] = async (input?: unknown) => {
        const result = await call(input);
        for (const listener of listeners) listener(`${group}.${name}`, result);
        return result;
      };
    }
    wrapped[group] = Object.freeze(methods);
  }
  return Object.freeze(wrapped) as DeskApi;
}

/** The renderer's one door to the main process. */
export const api: DeskApi = observed(window.api);
