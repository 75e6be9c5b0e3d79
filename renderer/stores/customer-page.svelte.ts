import type { CustomerPage } from '../../shared/ipc/customers.js';
import type { SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';

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
    const answer = await this.page.load(() => api.customers.page({ key: this.key }));
    if (!answer?.ok) return;
    const ids = answer.value.customer.externalIds;
    if (this.dr.map((entry) => entry.id).join('\n') !== ids.join('\n')) this.dr = ids.map((id) => ({ id, list: new Resource<SourcedCyberPage>() }));
    await this.#shown();
    await Promise.all(this.dr.map(({ id, list }) => list.load(() => api.cyber.list({ customerId: id, page: 1, pageSize: DR_PAGE_SIZE }))));
  }
}
