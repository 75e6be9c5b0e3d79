import { CapacityRow } from '../../../shared/api/readers.js';
import { checkedOnce } from '../ipc/kept-answers.js';

/**
 * Records kept parsed and checked, at most: the list's window and the pages around it as the person types (a key's
 * rows are mostly those of the key before) and as the views read the copy again after a commit (the same rows).
 */
export const CHECKED_RECORDS = 2_000;

/**
 * The capacity list's records as a query answers them, each parsed and checked by the row schema once, where the rows
 * are made, and kept by its stored text: the same text is the same record, whatever was committed meanwhile, so
 * nothing here goes stale. Every answer parsed and checked all its rows again (kept-answers.ts). A record that does not
 * pass is handed on as parsed, unkept: the answer's own check fails it as before.
 */
export class CheckedRecords {
  readonly #byText = new Map<string, CapacityRow>();
  readonly #limit: number;

  constructor(limit = CHECKED_RECORDS) {
    this.#limit = limit;
  }

  row(body: string): CapacityRow {
    const kept = this.#byText.get(body);
    if (kept) {
      // Used last, dropped last.
      this.#byText.delete(body);
      this.#byText.set(body, kept);
      return kept;
    }
    const parsed: unknown = JSON.parse(body);
    const checked = checkedOnce(CapacityRow, parsed);
    if (!checked) return parsed as CapacityRow;
    this.#byText.set(body, checked);
    if (this.#byText.size > this.#limit) this.#byText.delete(this.#byText.keys().next().value as string);
    return checked;
  }

  /** Records kept now. */
  get size(): number {
    return this.#byText.size;
  }
}
