import type { AppError } from '../../shared/ipc/result.js';
import type { WorklistEntryInput, WorklistHorizon, WorklistRow, WorklistState, WorklistWindow } from '../../shared/ipc/worklist.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';
import { RowSelection } from '../lib/row-selection.js';
import { sessionScope } from '../lib/session-scope.js';

/** Rows asked for at a time; "Show more" asks for the next ones. */
export const WORKLIST_PAGE = 200;

/**
 * The renewal worklist: its filters (horizon, state, customer, snoozed), the
 * rows shown so far, the selection for bulk actions, and the account
 * manager's entry per policy. Reads go through one Resource (the newest
 * answer only); a filter change starts from the top.
 */
export class RenewalWorklistStore {
  horizonDays = $state<WorklistHorizon>(30);
  state = $state<WorklistState | null>(null);
  customer = $state<string | null>(null);
  includeSnoozed = $state(false);
  readonly read = new Resource<WorklistWindow>();
  /** Rows of earlier pages ("Show more"), before those of the last answer. */
  #earlier = $state<WorklistRow[]>([]);
  readonly selection = new RowSelection();
  /** The last entry that could not be kept, with the policy it was for. */
  saveError = $state<{ readonly cidrId: string; readonly error: AppError } | null>(null);

  /**
   * `oneCustomer`: the worklist of a customer page, read only once its
   * customer is set (never across every customer) and gone with the page, so
   * it needs no reset when another user's session begins.
   */
  constructor(readonly oneCustomer = false) {
    if (!oneCustomer) sessionScope.register(() => this.reset());
  }

  get rows(): WorklistRow[] {
    return [...this.#earlier, ...(this.read.value?.rows ?? [])];
  }

  get total(): number | null {
    return this.read.value?.total ?? null;
  }

  get ids(): string[] {
    return this.rows.map((row) => row.policy.cidrId);
  }

  get selectedRows(): WorklistRow[] {
    return this.rows.filter((row) => this.selection.has(row.policy.cidrId));
  }

  /** Reads the first page for the current filters. */
  async load(): Promise<void> {
    if (this.oneCustomer && this.customer === null) return;
    this.#earlier = [];
    await this.read.load(() => api.worklist.query(this.#query(0)));
    this.selection.keepOnly(this.ids);
  }

  async showMore(): Promise<void> {
    const shown = this.rows;
    const result = await this.read.load(() => api.worklist.query(this.#query(shown.length)));
    if (result?.ok) this.#earlier = shown;
  }

  setHorizon(days: WorklistHorizon): Promise<void> {
    this.horizonDays = days;
    return this.load();
  }

  setState(state: WorklistState | null): Promise<void> {
    this.state = state;
    return this.load();
  }

  setCustomer(customer: string | null): Promise<void> {
    this.customer = customer;
    return this.load();
  }

  setIncludeSnoozed(include: boolean): Promise<void> {
    this.includeSnoozed = include;
    return this.load();
  }

  /** Keeps the account manager's entry for one policy, then shows the list as it now stands. */
  async saveEntry(input: WorklistEntryInput): Promise<boolean> {
    const result = await api.worklist.setEntry(input);
    if (!result.ok) {
      this.saveError = { cidrId: input.cidrId, error: result.error };
      return false;
    }
    this.saveError = null;
    await this.#reloadShown();
    return true;
  }

  /** Every page shown so far, read again (after a change the rows may move or leave). */
  async #reloadShown(): Promise<void> {
    const count = Math.max(this.rows.length, WORKLIST_PAGE);
    this.#earlier = [];
    await this.read.load(() => api.worklist.query({ ...this.#query(0), limit: Math.min(count, 500) }));
    this.selection.keepOnly(this.ids);
  }

  refresh(): Promise<void> {
    if (this.oneCustomer && this.customer === null) return Promise.resolve();
    return this.#reloadShown();
  }

  #query(offset: number) {
    return {
      horizonDays: this.horizonDays,
      states: this.state ? [this.state] : [],
      customer: this.customer,
      includeSnoozed: this.includeSnoozed,
      offset,
      limit: WORKLIST_PAGE,
    };
  }

  reset(): void {
    this.read.reset();
    this.#earlier = [];
    this.selection.clear();
    this.customer = null;
    this.saveError = null;
  }
}

export const renewalWorklist = new RenewalWorklistStore();
