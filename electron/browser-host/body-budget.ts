/**
 * Bounds the request bytes the host holds in memory at once, across every
 * request in flight: each request reserves what it has received so far, and a
 * request that would take the total past the budget is refused instead of
 * buffered.
 */
export class BodyBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get used(): number {
    return this.#used;
  }

  tryReserve(bytes: number): boolean {
    if (this.#used + bytes > this.limit) return false;
    this.#used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
}
