/**
 * Quit waits for shutdown: Electron exits right after 'will-quit' unless it
 * is prevented, which would lose the last audit lines and the replica's
 * orderly close. The first 'will-quit' is prevented, the app's close() runs
 * for at most `limitMs`, and then the app exits; the exit is not delayed
 * beyond the limit by a close() that hangs.
 */
export interface QuitDeps {
  readonly close: () => Promise<void>;
  readonly exit: (code: number) => void;
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
    this.deps.exit(0);
  }
}
