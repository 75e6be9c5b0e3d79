import type { AccountRow } from '../../shared/api/readers.js';
import type { SkippedItem } from '../../shared/api/tolerant.js';
import type { AppError } from '../../shared/ipc/result.js';
import type { Origin, SourcedAccounts } from '../../shared/ipc/sourced.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';

/**
 * The linked accounts, for the accounts view: one per visit (the view reads
 * them afresh each time it opens), so nothing of a previous user outlives it.
 */
export class LinkedAccounts {
  readonly read = new Resource<SourcedAccounts>();

  get accounts(): AccountRow[] | null {
    return this.read.value?.items ?? null;
  }

  /** Accounts of the answer that could not be shown (no id). */
  get skipped(): SkippedItem[] {
    return this.read.value?.skipped ?? [];
  }

  get origin(): Origin | null {
    return this.read.origin;
  }

  get loading(): boolean {
    return this.read.loading;
  }

  get error(): AppError | null {
    return this.read.error;
  }

  async load(): Promise<void> {
    await this.read.load(() => api.accounts.list());
  }
}
