import type { DriftEntry } from '../../../shared/ipc/diagnostics.js';
import { tupleKey } from '../../../shared/format/tuple-key.js';

export interface DriftLogDeps {
  /** Writes the first sighting of each difference to the app log (paths only). */
  readonly log: (message: string, detail: { endpoint: string; findings: readonly string[] }) => void;
  readonly now?: () => Date;
  /** Distinct differences kept; the oldest go first (a wildly varying service cannot fill memory). */
  readonly limit?: number;
}

/**
 * Remembers how the service's answers differ from this version's expectations:
 * once per endpoint and shape (the same findings), counted after that. It only
 * ever receives field paths from the client, never values.
 */
export class DriftLog {
  readonly #entries = new Map<string, DriftEntry>();
  readonly #deps: DriftLogDeps;

  constructor(deps: DriftLogDeps) {
    this.#deps = deps;
  }

  record(endpoint: string, findings: readonly string[]): void {
    if (findings.length === 0) return;
    const sorted = [...new Set(findings)].sort();
    const key = tupleKey(endpoint, ...sorted);
    const at = (this.#deps.now ?? (() => new Date()))().toISOString();
    const seen = this.#entries.get(key);
    if (seen) {
      this.#entries.set(key, { ...seen, lastSeen: at, count: seen.count + 1 });
      return;
    }
    this.#entries.set(key, { endpoint, findings: sorted, firstSeen: at, lastSeen: at, count: 1 });
    const limit = this.#deps.limit ?? 200;
    while (this.#entries.size > limit) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#deps.log(`the service's answer to ${endpoint} differs from what this version expects`, { endpoint, findings: sorted });
  }

  entries(): DriftEntry[] {
    return [...this.#entries.values()];
  }

  clear(): void {
    this.#entries.clear();
  }
}
