import { z } from 'zod';
import { CAPACITY_COLUMNS, capacityColumn, type CapacityColumn } from '../components/capacity/capacity-columns.js';
import { loadPersisted, savePersisted } from '../lib/persisted.js';
import { onFirstUse } from '../lib/first-use.js';
import { sessionScope } from '../lib/session-scope.js';

/** The narrowest a person can make a column, and the widest (CSS pixels). */
export const COLUMN_MIN_WIDTH = 56;
export const COLUMN_MAX_WIDTH = 640;
/** Users whose layouts are kept (the ui-state value is small); the least recent goes first. */
const USERS_KEPT = 8;

/** A user's columns and widths, as kept (made at its first use: first-use.ts). */
export const TableLayout = onFirstUse(() => {
  const columnId = z.string().max(40);
  return z.object({
    /** The ids of the columns shown; the registry's order decides where each appears. */
    shown: z.array(columnId).max(60),
    /** Widths a person set by resizing, by column id. */
    widths: z.array(z.tuple([columnId, z.number().int().min(COLUMN_MIN_WIDTH).max(COLUMN_MAX_WIDTH)])).max(60),
  });
});
export type TableLayout = z.infer<ReturnType<typeof TableLayout>>;

// A list of pairs rather than an object keyed by user: a user name such as "__proto__" stays plain data.
const KeptLayouts = onFirstUse(() => z.object({ users: z.array(z.object({ user: z.string().max(400), layout: TableLayout() })).max(USERS_KEPT) }));
type KeptLayouts = z.infer<ReturnType<typeof KeptLayouts>>;
export const LAYOUT_KEY = 'capacity-desk.capacity-columns.v1';

const FIRST_LAYOUT: TableLayout = { shown: CAPACITY_COLUMNS.filter((c) => c.shownAtFirst).map((c) => c.id), widths: [] };

/**
 * Which columns of the capacity table are shown and how wide, per user (kept
 * by the main process with the other view state, so it survives restarts).
 */
class CapacityTableLayout {
  /** The layout last set, and whose it is; another user's is read from the kept state. */
  #chosen = $state.raw<{ readonly user: string | null; readonly layout: TableLayout } | null>(null);
  /** Bumped when another user signs in, so readers read that user's layout. */
  #scope = $state(0);

  constructor() {
    sessionScope.register(() => this.#scope++);
  }

  /** The columns shown, in the registry's order; the ones naming a row always. */
  get columns(): CapacityColumn[] {
    const shown = new Set(this.#layout().shown);
    return CAPACITY_COLUMNS.filter((column) => !column.hideable || shown.has(column.id));
  }

  isShown(id: string): boolean {
    return this.columns.some((column) => column.id === id);
  }

  /** The width of a column now, in CSS pixels. */
  width(id: string): number {
    return this.#layout().widths.find(([column]) => column === id)?.[1] ?? capacityColumn(id)?.width ?? COLUMN_MIN_WIDTH;
  }

  setShown(id: string, shown: boolean): void {
    const column = capacityColumn(id);
    if (!column?.hideable) return;
    const layout = this.#layout();
    const rest = layout.shown.filter((kept) => kept !== id);
    this.#set({ ...layout, shown: shown ? [...rest, id] : rest });
  }

  resize(id: string, width: number): void {
    if (!capacityColumn(id)) return;
    const layout = this.#layout();
    const clamped = Math.round(Math.min(COLUMN_MAX_WIDTH, Math.max(COLUMN_MIN_WIDTH, width)));
    this.#set({ ...layout, widths: [...layout.widths.filter(([column]) => column !== id), [id, clamped]] });
  }

  /** The columns and widths a new user starts with. */
  reset(): void {
    this.#set(FIRST_LAYOUT);
  }

  /** The ids of the columns shown, to keep with a saved view. */
  shownIds(): string[] {
    return this.columns.map((column) => column.id);
  }

  /** A saved view's columns (the widths stay the person's own). */
  showOnly(shown: readonly string[]): void {
    this.#set({ ...this.#layout(), shown: shown.filter((id) => capacityColumn(id) !== undefined) });
  }

  #layout(): TableLayout {
    void this.#scope;
    const user = sessionScope.current;
    const set = this.#chosen;
    if (set && set.user === user) return set.layout;
    const kept = user === null ? undefined : loadPersisted(LAYOUT_KEY, KeptLayouts)?.users.find((entry) => entry.user === user);
    return kept?.layout ?? FIRST_LAYOUT;
  }

  #set(layout: TableLayout): void {
    const user = sessionScope.current;
    this.#chosen = { user, layout };
    if (user === null) return;
    const others = (loadPersisted(LAYOUT_KEY, KeptLayouts)?.users ?? []).filter((entry) => entry.user !== user);
    const kept: KeptLayouts = { users: [{ user, layout }, ...others].slice(0, USERS_KEPT) };
    savePersisted(LAYOUT_KEY, kept);
  }
}

export const capacityTableLayout = new CapacityTableLayout();
