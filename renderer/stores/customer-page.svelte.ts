import type { CustomerPage, CustomerPolicies } from '../../shared/ipc/customers.js';
import type { Result } from '../../shared/ipc/result.js';
import type { SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';

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
  /** One list per external customer id, in the customer's order. */
  dr = $state<ReadonlyArray<{ readonly id: string; readonly list: Resource<SourcedCyberPage> }>>([]);

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
    const early = takeStarted(this.key);
    const answer = await this.page.load(() => early ?? api.customers.page({ key: this.key }));
    if (!answer?.ok) return;
    const ids = answer.value.customer.externalIds;
    if (this.dr.map((entry) => entry.id).join('\n') !== ids.join('\n')) this.dr = ids.map((id) => ({ id, list: new Resource<SourcedCyberPage>() }));
    await this.#shown();
    await Promise.all([
      this.policies.load(() => api.customers.policies({ key: this.key })),
      ...this.dr.map(({ id, list }) => list.load(() => api.cyber.list({ customerId: id, page: 1, pageSize: DR_PAGE_SIZE }))),
    ]);
  }

  /** Their policies as listed now: the newest read after the first frame, else the page's first rows. */
  get rows(): CustomerPolicies['rows'] {
    return this.policies.value?.rows ?? this.page.value?.capacity.rows ?? [];
  }
}
