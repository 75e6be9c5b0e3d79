import type { CapacityPolicy, CapacityStatus } from '../../shared/api/capacity.js';
import type { LocalSortColumn, UnreadableCopy } from '../../shared/ipc/offline.js';
import type { AppError } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';
import { connectivity } from './connectivity.svelte.js';
import type { RowRange } from '../lib/virtual-range.js';

const BLOCK = 50;

/**
 * The offline capacity list as a window onto the main process's index: only
 * the blocks of rows around what is on screen are fetched, never the list.
 * A change of filter, search or sort starts a new generation, and answers of
 * older generations are dropped.
 */
class OfflineCapacitiesStore {
  text = $state('');
  status = $state<CapacityStatus | undefined>(undefined);
  sortBy = $state<LocalSortColumn>('createdDate');
  sortOrder = $state<'asc' | 'desc'>('desc');
  total = $state(0);
  fetchedAt = $state<string | null>(null);
  /** The rest of a large cache is still loading; only the newest rows are known. */
  partial = $state(false);
  /** The copy could not be read: there are no rows, and the notice says why. */
  unreadable = $state<UnreadableCopy | null>(null);
  busy = $state(false);
  error = $state<AppError | null>(null);
  /** Bumped when rows arrive, so readers of getRow re-render. */
  version = $state(0);
  /** When the first window of the current generation was answered (ms since the query began). */
  lastQueryMs = $state(0);
  #rows = new Map<number, CapacityPolicy>();
  #blocks = new Set<number>();
  #generation = 0;

  getRow = (index: number): CapacityPolicy | undefined => {
    void this.version;
    return this.#rows.get(index);
  };

  /** Starts over with the current filter, search and sort. */
  async reload(): Promise<void> {
    this.#generation += 1;
    this.#rows = new Map();
    this.#blocks = new Set();
    this.error = null;
    await this.#fetchBlock(0, this.#generation);
  }

  async showRange(range: RowRange): Promise<void> {
    const generation = this.#generation;
    const first = Math.floor(range.start / BLOCK);
    const last = Math.floor(Math.max(range.start, range.end - 1) / BLOCK);
    const wanted: Promise<void>[] = [];
    for (let block = first; block <= last; block += 1) {
      if (!this.#blocks.has(block)) wanted.push(this.#fetchBlock(block, generation));
    }
    await Promise.all(wanted);
  }

  async #fetchBlock(block: number, generation: number): Promise<void> {
    this.#blocks.add(block);
    this.busy = true;
    const started = performance.now();
    const result = await api.offline.capacities({
      text: this.text,
      ...(this.status ? { status: this.status } : {}),
      sortBy: this.sortBy,
      sortOrder: this.sortOrder,
      offset: block * BLOCK,
      limit: BLOCK,
    });
    if (generation !== this.#generation) return;
    this.busy = false;
    if (!result.ok) {
      this.#blocks.delete(block);
      this.error = result.error;
      return;
    }
    const { rows, total, fetchedAt, loading, unreadable } = result.value;
    // Found unreadable while answering: the app-wide status learns it too, so the notice appears everywhere.
    if (unreadable && unreadable.detectedAt !== this.unreadable?.detectedAt) void connectivity.refreshStatus();
    this.unreadable = unreadable ?? null;
    rows.forEach((row, i) => this.#rows.set(result.value.offset + i, row));
    this.total = total;
    this.fetchedAt = fetchedAt;
    this.partial = loading;
    if (block === 0) this.lastQueryMs = performance.now() - started;
    // A partial answer is refreshed once the whole cache is loaded.
    if (loading) setTimeout(() => void (generation === this.#generation && this.reload()), 300);
    this.version += 1;
  }
}

export const offlineCapacities = new OfflineCapacitiesStore();
