/** A change that happens by itself when the sandbox clock reaches `atMs`. */
export interface TimedChange {
  readonly atMs: number;
  readonly kind: 'capacity-expire' | 'capacity-start' | 'capacity-complete' | 'cyber-complete';
  readonly id: string;
}

/**
 * Pending time-driven changes, soonest first (a binary heap). A change whose
 * policy moved on meanwhile (purchased, canceled) is checked and skipped when
 * it comes due, which is cheaper than removing it.
 */
export class Timeline {
  private readonly heap: TimedChange[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(change: TimedChange): void {
    const heap = this.heap;
    heap.push(change);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as TimedChange).atMs <= change.atMs) break;
      heap[i] = heap[parent] as TimedChange;
      i = parent;
    }
    heap[i] = change;
  }

  /** Removes and returns the soonest change due at or before `nowMs`. */
  popDue(nowMs: number): TimedChange | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (!top || top.atMs > nowMs) return undefined;
    const last = heap.pop() as TimedChange;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child =
          right < heap.length && (heap[right] as TimedChange).atMs < (heap[left] as TimedChange).atMs ? right : left;
        if ((heap[child] as TimedChange).atMs >= last.atMs) break;
        heap[i] = heap[child] as TimedChange;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}
