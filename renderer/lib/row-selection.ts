import { SvelteSet } from 'svelte/reactivity';

/**
 * Which rows of a list are selected, by id, as a list with checkboxes selects
 * them: a click toggles one row and becomes the anchor; a shift-click sets
 * every row between the anchor and the clicked one to the clicked row's new
 * state (as file managers do). Ids no longer shown stay selected until the
 * list says otherwise (`keepOnly`).
 */
export class RowSelection {
  /** Reactive, so a view's checkboxes and counts follow every change. */
  readonly #ids = new SvelteSet<string>();
  #anchor: string | null = null;

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

  /** Selects every row of `order`, or clears them all when every one already is. */
  toggleAll(order: readonly string[]): void {
    if (order.length > 0 && order.every((id) => this.#ids.has(id))) this.#ids.clear();
    else for (const id of order) this.#ids.add(id);
    this.#anchor = null;
  }

  /** Drops ids that are no longer in the list (a filter changed). */
  keepOnly(order: readonly string[]): void {
    const shown = new Set(order);
    for (const id of this.#ids) if (!shown.has(id)) this.#ids.delete(id);
    if (this.#anchor !== null && !shown.has(this.#anchor)) this.#anchor = null;
  }

  clear(): void {
    this.#ids.clear();
    this.#anchor = null;
  }
}
