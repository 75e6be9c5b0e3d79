/**
 * Quit waits for shutdown: Electron exits right after 'will-quit' unless it
 * is prevented, which would lose the last audit lines and the replica's
 * orderly close. The first 'will-quit' is prevented, the app's close() runs
 * for at most `limitMs`, and then the app quits again, this time let through:
 * a plain quit, not app.exit(), so Electron still emits 'quit' and
 * electron-updater can install a downloaded update then. A close() that
 * hangs does not delay it beyond the limit.
 */
export interface QuitDeps {
  readonly close: () => Promise<void>;
  /** app.quit(): the second 'will-quit' goes through. */
  readonly quit: () => void;
  readonly log: (message: string, error?: unknown) => void;
  readonly limitMs?: number;
  readonly setTimer?: (run: () => void, ms: number) => { unref?: () => void };
}

export const QUIT_LIMIT_MS = 10_000;

export class QuitSequence {
  #started = false;

  constructor(private readonly deps: QuitDeps) {}

  /** The 'will-quit' listener. */
  onWillQuit(event: { preventDefault(): void }): void {
    if (this.#started) return;
    this.#started = true;
    event.preventDefault();
    void this.#shutDown();
  }

  async #shutDown(): Promise<void> {
    const limit = this.deps.limitMs ?? QUIT_LIMIT_MS;
    const setTimer = this.deps.setTimer ?? ((run, ms) => setTimeout(run, ms));
    const outcome = await new Promise<'closed' | 'failed' | 'timeout'>((resolve) => {
      setTimer(() => resolve('timeout'), limit).unref?.();
      this.deps.close().then(
        () => resolve('closed'),
        (error: unknown) => {
          this.deps.log('shutdown failed', error);
          resolve('failed');
        },
      );
    });
    if (outcome === 'timeout') this.deps.log(`shutdown did not finish within ${limit / 1000} s; exiting anyway`);
    this.deps.quit();
  }
}
