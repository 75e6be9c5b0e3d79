import { SvelteSet } from 'svelte/reactivity';

/**
 * Which rows of a list are selected, by id, as a list with checkboxes selects
 * them: a click toggles one row and becomes the anchor; a shift-click sets
 * every row between the anchor and the clicked one to the clicked row's new
 * state (as file managers do); Shift+arrows extend from where the cursor
 * was (`extend`). Ids no longer shown stay selected until the
 * list says otherwise (`keepOnly`).
 */
export class RowSelection {
  /** Reactive, so a view's checkboxes and counts follow every change. */
  readonly #ids = new SvelteSet<string>();
  #anchor: string | null = null;
  /** Rows the current run of extensions (Shift+arrows) added; the next one may take them back. */
  #extended: string[] | null = null;

  get ids(): ReadonlySet<string> {
    return this.#ids;
  }

  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Toggles `id`, or with `range` sets the rows from the anchor to it (in `order`) as `id` becomes. */
  toggle(id: string, order: readonly string[], range = false): void {
    this.#extended = null;
    const selecting = !this.#ids.has(id);
    const from = this.#anchor === null ? -1 : order.indexOf(this.#anchor);
    const to = order.indexOf(id);
    if (range && from >= 0 && to >= 0) {
      const [start, end] = from <= to ? [from, to] : [to, from];
      for (const between of order.slice(start, end + 1)) {
        if (selecting) this.#ids.add(between);
        else this.#ids.delete(between);
      }
    } else if (selecting) {
      this.#ids.add(id);
    } else {
      this.#ids.delete(id);
    }
    this.#anchor = id;
  }

  /**
   * Shift+arrow from the keyboard: the first of a run anchors at `from` (the
   * row the cursor left); each selects the rows from the anchor to `to`, and
   * takes back what an earlier step of the same run added beyond them, so
   * moving back narrows the range as it does in a file manager.
   */
  extend(from: string, to: string, order: readonly string[]): void {
    if (this.#extended === null || this.#anchor === null) {
      this.#anchor = from;
      this.#extended = [];
    }
    const start = order.indexOf(this.#anchor);
    const end = order.indexOf(to);
    if (start < 0 || end < 0) return;
    const range = order.slice(Math.min(start, end), Math.max(start, end) + 1);
    const inRange = new Set(range);
    for (const id of this.#extended) if (!inRange.has(id)) this.#ids.delete(id);
    const added = this.#extended.filter((id) => inRange.has(id));
    for (const id of range) {
      if (this.#ids.has(id)) continue;
      this.#ids.add(id);
      added.push(id);
    }
    this.#extended = added;
  }

  /** Selects every row of `order`, or clears them all when every one already is. */
  toggleAll(order: readonly string[]): void {
    if (order.length > 0 && order.every((id) => this.#ids.has(id))) this.#ids.clear();
    else for (const id of order) this.#ids.add(id);
    this.#anchor = null;
    this.#extended = null;
  }

  /** Drops ids that are no longer in the list (a filter changed). */
  keepOnly(order: readonly string[]): void {
    const shown = new Set(order);
    for (const id of this.#ids) if (!shown.has(id)) this.#ids.delete(id);
    if (this.#anchor !== null && !shown.has(this.#anchor)) this.#anchor = null;
    this.#extended = null;
  }

  clear(): void {
    this.#ids.clear();
    this.#anchor = null;
    this.#extended = null;
  }
}
