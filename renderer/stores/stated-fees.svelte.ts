import type { StatedFee, StatedFees } from '../../shared/ipc/activity.js';
import { feesInMonthOf } from '../../shared/money/stated-fees.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';
import { sessionScope } from '../lib/session-scope.js';

/**
 * The cancellation fee the service stated for each capacity policy this app
 * canceled (from the own data's activity record, one read for all), for the
 * table's Fee column, its exports and the overview. Read again after a cancel;
 * another user's fees are dropped the moment their session begins.
 */
class StatedFeesStore {
  readonly fees = new Resource<StatedFees>();
  /** By policy id: a Map, so an id such as `__proto__` is a plain key. */
  readonly byId: ReadonlyMap<string, StatedFee> = $derived(new Map((this.fees.value ?? []).map((fee) => [fee.cidrId, fee])));

  constructor() {
    sessionScope.register(() => this.fees.reset());
  }

  async load(): Promise<void> {
    await this.fees.load(() => api.activity.statedFees());
  }

  /** The stated fee of a policy; null when this app recorded none. */
  of(cidrId: string): number | null {
    return this.byId.get(cidrId)?.fee ?? null;
  }

  /** The fees of cancels made in the calendar month of `now` (this computer's time zone): their sum and how many. */
  inMonthOf(now: Date): { total: number; count: number } {
    return feesInMonthOf(this.byId.values(), now);
  }
}

export const statedFees = new StatedFeesStore();
