/**
 * Background work asked again and again (the Renewals' opening made ahead after each refresh): one run under way
 * and at most one waiting. Asks made while one waits are that one: it reads what is newest when its turn comes,
 * so several refreshes in a row cost one more run, not one each (review8).
 */
export class MergedRuns {
  readonly #run: () => Promise<void>;
  readonly #turn: () => Promise<void>;
  /** The last run asked for (under way or waiting), chained after the one before: what `settled` waits for. */
  #last: Promise<void> = Promise.resolve();
  #waiting = false;

  /**
   * @param run the work; its failures are its own to report (a failure here is swallowed: the next ask runs again).
   * @param turn what a run waits for once the one before has ended (the person's requests first).
   */
  constructor(run: () => Promise<void>, turn: () => Promise<void> = () => Promise.resolve()) {
    this.#run = run;
    this.#turn = turn;
  }

  ask(): void {
    if (this.#waiting) return;
    this.#waiting = true;
    const before = this.#last;
    this.#last = (async () => {
      try {
        await before;
        await this.#turn();
      } finally {
        // From here on it reads: an ask after this point needs a run of its own.
        this.#waiting = false;
      }
      await this.#run();
    })().catch(() => undefined);
  }

  /** Resolves once every run asked so far has ended. */
  settled(): Promise<void> {
    return this.#last;
  }
}
