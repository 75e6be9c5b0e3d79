import type { CustomerPage, CustomerPolicies } from '../../shared/ipc/customers.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import type { SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { QUOTE_MAX_POLICIES } from '../../shared/quote/quote-limits.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';
import { tupleKey } from '../../shared/format/tuple-key.js';
import { countActiveDr, type DrActiveCount } from '../lib/dr-active-count.js';

/** The page read started as its route was entered, until its page's store takes it. */
let started: { readonly key: string; readonly answer: Promise<Result<CustomerPage>> } | null = null;

/**
 * Starts reading a customer's page as its route is entered (route-reads.ts), before the view it leaves is taken
 * down and the page's view is built: begun by the page's view, the request waited for both (35-45 ms after the
 * click on a quiet machine, the book's 2,000 rows taken down). Null forgets a read no page took.
 */
export function startCustomerPage(key: string | null): void {
  started = key === null ? null : { key, answer: api.customers.page({ key }) };
}

/** The read started for this customer, once: a later load (a refresh, a copy changed) reads anew. */
function takeStarted(key: string): Promise<Result<CustomerPage>> | null {
  const taken = started?.key === key ? started.answer : null;
  started = null;
  return taken;
}

/** One DR id's part of the page: its first page listed, and its active count when the list is longer. */
export interface DrEntry {
  readonly id: string;
  readonly list: Resource<SourcedCyberPage>;
  readonly active: Resource<DrActiveCount>;
}

/** DR policies read per id for the page: more than any one customer id holds in practice; the DR view pages beyond. */
export const DR_PAGE_SIZE = 100;

/**
 * One customer's page: the figures and capacity policies from the local copy
 * (at once, with its age), and the DR policies of each of their ids, live
 * when the service answers and from the copy when it does not. One instance
 * per page shown, so nothing of another customer lingers.
 */
export class CustomerPageStore {
  readonly page = new Resource<CustomerPage>();
  /** The newest of their policies the page lists, read once the page's first frame (with its first rows) is painted. */
  readonly policies = new Resource<CustomerPolicies>();
  /** One list per external customer id, in the customer's order, with its active count when it is longer than its first page. */
  dr = $state<ReadonlyArray<DrEntry>>([]);

  /**
   * Which load each shown answer belongs to: the newest 200 are listed only beside the page answer of the same
   * load. Preferred whatever their age, a reload (the copy changed) listed the last read's rows beside new totals
   * until the policies answered again, and for good when that read failed, a policy since bought still quotable.
   */
  #loads = 0;
  #pageLoad = $state(0);
  #policiesLoad = $state(0);

  /**
   * `shown`: resolves once the page's answer is on screen. The DR lists are asked after it: asked at once,
   * their requests and answers shared the page's thread and the host with the first frame the person waits for.
   */
  readonly #shown: () => Promise<void>;

  constructor(
    readonly key: string,
    shown: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.#shown = shown;
  }

  async load(): Promise<void> {
    const load = ++this.#loads;
    const early = takeStarted(this.key);
    const answer = await this.page.load(() => early ?? api.customers.page({ key: this.key }));
    if (!answer?.ok) return;
    this.#pageLoad = load;
    const ids = answer.value.customer.externalIds;
    if (tupleKey(...this.dr.map((entry) => entry.id)) !== tupleKey(...ids)) this.dr = ids.map((id) => ({ id, list: new Resource<SourcedCyberPage>(), active: new Resource<DrActiveCount>() }));
    await this.#shown();
    await Promise.all([this.#readPolicies(load), ...this.dr.map((entry) => this.#readDr(entry))]);
  }

  /**
   * A DR id's first page, then, when the list holds more, its active policies counted over its further pages
   * (bounded: `countActiveDr`), so the page's DR count is exact where it said "at least" past the first 100.
   */
  async #readDr({ id, list, active }: DrEntry): Promise<void> {
    const read = (page: number) => api.cyber.list({ customerId: id, page, pageSize: DR_PAGE_SIZE });
    const first = await list.load(() => read(1));
    if (!first?.ok || first.value.total <= first.value.data.length) return active.reset();
    await active.load(() => countActiveDr(first.value, read, DR_PAGE_SIZE));
  }

  /** Reads the newest policies again for the page shown (after that read failed). */
  retryPolicies(): Promise<void> {
    return this.#readPolicies(this.#pageLoad);
  }

  async #readPolicies(load: number): Promise<void> {
    const answer = await this.policies.load(() => api.customers.policies({ key: this.key }));
    if (answer?.ok) this.#policiesLoad = load;
  }

  /** Their policies as listed now: the newest read for the page shown, else that page's first rows. */
  get rows(): CustomerPolicies['rows'] {
    const newest = this.#policiesLoad === this.#pageLoad ? this.policies.value : null;
    return newest?.rows ?? this.page.value?.capacity.rows ?? [];
  }

  /** Whether the rows listed are the newest read's for the page shown (else that page's first rows, replaced soon). */
  get newestListed(): boolean {
    return this.#policiesLoad === this.#pageLoad && this.policies.value !== null;
  }

  /** The failure of the newest policies' read for the page shown, once no read of them is under way. */
  get policiesError(): AppError | null {
    return this.policies.loading || this.#policiesLoad === this.#pageLoad ? null : this.policies.error;
  }

  /** The ids a quote of their ready policies takes: of the rows listed (the same load's), at most a quote holds. */
  get readyIds(): string[] {
    return this.rows
      .filter((policy) => policy.policyStatus === 'READY_FOR_PURCHASE')
      .map((policy) => policy.cidrId)
      .slice(0, QUOTE_MAX_POLICIES);
  }
}
