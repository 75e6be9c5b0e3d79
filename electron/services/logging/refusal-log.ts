/**
 * Refused requests are counted, not logged one by one: a flood of them must
 * not fill the log (and push older lines out of its rotation). The first
 * refusal of each reason is logged at once, so a real problem shows without
 * delay; after that one summary line per interval says how many there were.
 */
export class RefusalLog {
  readonly #log: (line: string) => void;
  readonly #intervalMs: number;
  readonly #seen = new Set<string>();
  #counts = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;

  constructor(log: (line: string) => void, intervalMs = 60_000) {
    this.#log = log;
    this.#intervalMs = intervalMs;
  }

  /** `reason` is fixed text chosen by the host: never request data. */
  refused(reason: string): void {
    if (!this.#seen.has(reason)) {
      this.#seen.add(reason);
      this.#log(`refused a request: ${reason} (further refusals are counted and summarised)`);
      return;
    }
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
    this.#timer ??= setTimeout(() => this.flush(), this.#intervalMs).unref();
  }

  /** Writes the summary of what was counted since the last one. */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#counts.size === 0) return;
    const parts = [...this.#counts].map(([reason, count]) => `${count} ${reason}`);
    const total = [...this.#counts.values()].reduce((a, b) => a + b, 0);
    this.#counts = new Map();
    this.#log(`refused ${total} more requests: ${parts.join('; ')}`);
  }
}
