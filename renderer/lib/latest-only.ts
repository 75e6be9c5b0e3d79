/**
 * Only the newest of overlapping reads may write: a slow answer to an older
 * query (another page, another filter, another user) that resolves after a
 * newer one would otherwise overwrite it. Each read takes a ticket before it
 * awaits and checks it after; `drop()` makes every ticket taken so far stale.
 */
export class LatestOnly {
  #latest = 0;

  /** A ticket for a read starting now; `current()` is false once a newer read started or `drop()` ran. */
  begin(): { current: () => boolean } {
    const ticket = ++this.#latest;
    return { current: () => ticket === this.#latest };
  }

  /**
   * A ticket that shares the current generation instead of starting one: for
   * several reads of one query (pages fetched side by side), all current until
   * the next `begin()` or `drop()`.
   */
  join(): { current: () => boolean } {
    const ticket = this.#latest;
    return { current: () => ticket === this.#latest };
  }

  /** Every read under way is now stale (the query changed, the store was reset). */
  drop(): void {
    this.#latest += 1;
  }
}
