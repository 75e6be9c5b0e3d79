import type { EventName } from '../../shared/ipc/channels.js';
import type { EventPayload } from '../../shared/ipc/contract.js';

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Push events from the services to whichever host forwards them to the renderer. */
export class AppEvents {
  readonly #listeners = new Set<EventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) listener(event, payload);
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
