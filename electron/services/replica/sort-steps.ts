/**
 * A stable sort of a list by `compare`, a bounded piece at a time, for background work that must yield between
 * pieces: runs of a step's rows sorted by the array's own (stable) sort, then the runs merged in pairs, a step's rows
 * of places at a time, until one run is left. The Renewals' upcoming read sorted its whole window in one piece at
 * the end of its steps (a turn of up to 1.1 s after a first sync of 1,000,000 at load 30-50, branch curve17's trace).
 */
export class SortSteps<T> {
  #from: T[];
  #to: T[];
  #sortedUpTo = 0;
  /** Length of the runs being merged, where the merge of the pair under way stands. */
  #width = 0;
  #left = 0;
  #merging = false;
  #i = 0;
  #j = 0;
  #k = 0;

  constructor(
    items: readonly T[],
    readonly compare: (a: T, b: T) => number,
  ) {
    this.#from = items.slice();
    this.#to = new Array<T>(items.length);
  }

  /** The items in order, once step() has answered false. */
  get sorted(): readonly T[] {
    return this.#from;
  }

  /** Does up to `rows` rows of the work; false once the list is in order. */
  step(rows: number): boolean {
    const size = this.#from.length;
    const budget = Math.max(1, rows);
    if (this.#sortedUpTo < size) {
      // The first step's rows set the runs' length; every run is sorted by itself, one a step.
      if (this.#width === 0) this.#width = budget;
      const start = this.#sortedUpTo;
      const end = Math.min(size, start + this.#width);
      const run = this.#from.slice(start, end).sort(this.compare);
      for (let i = 0; i < run.length; i += 1) this.#from[start + i] = run[i] as T;
      this.#sortedUpTo = end;
      return this.#sortedUpTo < size || this.#width < size;
    }
    if (this.#width >= size) return false;
    this.#mergeSome(budget);
    return this.#width < size;
  }

  #mergeSome(budget: number): void {
    const size = this.#from.length;
    let left = budget;
    while (left > 0 && this.#width < size) {
      const mid = Math.min(size, this.#left + this.#width);
      const right = Math.min(size, this.#left + 2 * this.#width);
      if (!this.#merging) {
        this.#merging = true;
        this.#i = this.#left;
        this.#j = mid;
        this.#k = this.#left;
      }
      const from = this.#from;
      const to = this.#to;
      while (left > 0 && this.#k < right) {
        // Ties from the left run first: the sort stays stable.
        const takeLeft = this.#j >= right || (this.#i < mid && this.compare(from[this.#i] as T, from[this.#j] as T) <= 0);
        to[this.#k] = takeLeft ? (from[this.#i++] as T) : (from[this.#j++] as T);
        this.#k += 1;
        left -= 1;
      }
      if (this.#k < right) return;
      this.#merging = false;
      this.#left = right;
      if (this.#left >= size) {
        this.#left = 0;
        this.#width *= 2;
        this.#from = to;
        this.#to = from;
      }
    }
  }
}
