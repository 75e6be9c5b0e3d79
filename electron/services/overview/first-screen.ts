import type { Handlers } from '../../../shared/ipc/contract.js';
import { markLaunch } from '../diagnostics/launch-marks.js';

/**
 * When the first screen (the overview, where every sign-in and launch lands)
 * has had its figures: the refresh a sign-in starts over a copy on disk waits
 * for it, so that nothing heavy runs on the main process while the person
 * waits for that first screen (issue 25). A sign-in that no window follows with the overview
 * (a host with no page open, the password asked again over another view) waits
 * `fallbackMs` at most.
 */
export class FirstScreen {
  #waiting: Array<() => void> = [];

  /** Resolves at the next answer of the overview, or after fallbackMs. */
  next(fallbackMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting = this.#waiting.filter((waiting) => waiting !== done);
        resolve();
      }, fallbackMs);
      timer.unref?.();
      this.#waiting.push(done);
    });
  }

  /** The handlers, with the overview's answer (or failure: the screen shows that too) announced. */
  watch(handlers: Handlers): Handlers {
    const overview = handlers['overview.summary'];
    return {
      ...handlers,
      'overview.summary': async (input) => {
        markLaunch('overview asked');
        try {
          return await overview(input);
        } finally {
          markLaunch('overview answered');
          this.#answered();
        }
      },
    };
  }

  #answered(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const done of waiting) done();
  }
}
