import { AppFailure } from '../../../shared/ipc/result.js';

/**
 * Money-moving actions (purchase, cancel, DR termination) for one policy run
 * one at a time in the main process: a double click, a second window or a
 * repeated IPC call while the first request is in flight is refused, never sent.
 */
export class InFlightGuard {
  readonly #inFlight = new Map<string, string>();

  async run<T>(key: string, action: string, work: () => Promise<T>): Promise<T> {
    const running = this.#inFlight.get(key);
    if (running) {
      throw new AppFailure({
        kind: 'conflict',
        message: `A ${running} request for this policy is already being sent. Wait for its answer before trying again.`,
      });
    }
    this.#inFlight.set(key, action);
    try {
      return await work();
    } finally {
      this.#inFlight.delete(key);
    }
  }

  isInFlight(key: string): boolean {
    return this.#inFlight.has(key);
  }
}
