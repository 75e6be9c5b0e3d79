import { z } from 'zod';
import { CapacityStatus } from '../../shared/api/capacity-status.js';
import { SortOrder } from '../../shared/api/sort-order.js';
import { LocalSortColumn } from '../../shared/ipc/local-sort.js';
import { FilterForm } from '../lib/capacity-filters.js';
import { loadPersisted, savePersisted } from '../lib/persisted.js';
import { onFirstUse } from '../lib/first-use.js';
import { sessionScope } from '../lib/session-scope.js';
import { capacityList } from './capacity-list.svelte.js';
import { capacityTableLayout } from './capacity-table-layout.svelte.js';

/** A person keeps this many views (each one's kept state is small: the whole fits the view-state limit). */
export const SAVED_VIEWS_MAX = 6;

/** One saved view, as kept (made at its first use: first-use.ts). */
export const SavedView = onFirstUse(() =>
  z.object({
    name: z.string().trim().min(1).max(60),
    status: CapacityStatus.nullable(),
    text: z.string().max(200),
    sortBy: LocalSortColumn.catch('createdDate'),
    sortOrder: SortOrder,
    filters: FilterForm(),
    columns: z.array(z.string().max(40)).max(40),
  }),
);
export type SavedView = z.infer<ReturnType<typeof SavedView>>;
const SavedViews = onFirstUse(() => z.array(SavedView()).max(SAVED_VIEWS_MAX));

/** A key of the view state per profile and user: the names are not keys (any characters), their hash is. */
function keyOf(scope: string): string {
  let hash = 0x811c9dc5;
  for (const char of scope) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `capacity-desk.saved-views.${hash.toString(16).padStart(8, '0')}`;
}

/**
 * The capacity list's saved views (filters, sort, columns, search) of the
 * signed-in user, shown in the navigation and the command palette.
 */
class SavedViewsStore {
  #chosen = $state.raw<{ readonly user: string | null; readonly views: readonly SavedView[] } | null>(null);
  #scope = $state(0);

  constructor() {
    sessionScope.register(() => this.#scope++);
  }

  get views(): readonly SavedView[] {
    void this.#scope;
    const user = sessionScope.current;
    const chosen = this.#chosen;
    if (chosen && chosen.user === user) return chosen.views;
    return user === null ? [] : (loadPersisted(keyOf(user), SavedViews) ?? []);
  }

  /** Keeps the list as it is now under a name (the same name replaces it); a clear message when it cannot. */
  saveCurrent(name: string): string | null {
    const view = SavedView().safeParse({
      name,
      status: capacityList.status,
      text: capacityList.text,
      sortBy: capacityList.sortBy,
      sortOrder: capacityList.sortOrder,
      filters: capacityList.filters,
      columns: capacityTableLayout.shownIds(),
    });
    if (!view.success) return 'Give the view a name of at most 60 characters.';
    const others = this.views.filter((kept) => kept.name !== view.data.name);
    if (others.length >= SAVED_VIEWS_MAX) return `At most ${SAVED_VIEWS_MAX} views are kept: remove one first.`;
    this.#set([...others, view.data]);
    return null;
  }

  remove(name: string): void {
    this.#set(this.views.filter((view) => view.name !== name));
  }

  /** Shows the capacity list as the view was saved. */
  apply(view: SavedView): void {
    capacityList.applyView(view);
    capacityTableLayout.showOnly(view.columns);
  }

  #set(views: readonly SavedView[]): void {
    const user = sessionScope.current;
    this.#chosen = { user, views };
    if (user !== null) savePersisted(keyOf(user), views.map((view) => ({ ...view, filters: { ...view.filters }, columns: [...view.columns] })));
  }
}

export const savedViews = new SavedViewsStore();
