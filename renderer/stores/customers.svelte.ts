import { CustomerMatcher, nameKey } from '../../shared/customers/matching.js';
import { byName } from '../../shared/customers/book-rules.js';
import type { AccountRow } from '../../shared/api/readers.js';
import type { Customer, CustomerBook, CustomerDraft, CustomerImportReport, CustomerProposal, CustomersOverview, DrFound } from '../../shared/ipc/customers.js';
import { LatestOnly } from '../lib/latest-only.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';
import { sessionScope } from '../lib/session-scope.js';

/** Customers a picker offers at most for what is typed. */
const PICKER_LIMIT = 8;

/**
 * The account manager's customer book, as every view asks about it: who owns
 * a policy (by its account or its DR id), which customers match what is
 * typed, and the book's own changes. One instance; another user's book is
 * dropped the moment their session begins.
 */
class CustomersStore {
  readonly book = new Resource<CustomerBook>();
  readonly proposals = new Resource<CustomerProposal[]>();
  /** The overview by customer: the top customers by spend and by savings, from the local copy. */
  readonly standings = new Resource<CustomersOverview>();
  /** The linked accounts (id and name of each), so a customer listing an account by id finds policies naming it. */
  accounts = $state<readonly AccountRow[]>([]);

  /** DR policies of the copy found for the palette's text (by id or name). */
  drFound = $state<DrFound[]>([]);
  #drSearch = new LatestOnly();

  readonly customers: Customer[] = $derived([...(this.book.value?.customers ?? [])].sort(byName));
  readonly matcher = $derived(new CustomerMatcher(this.customers, this.accounts));

  constructor() {
    sessionScope.register(() => {
      this.book.reset();
      this.proposals.reset();
      this.standings.reset();
      this.accounts = [];
      this.#drSearch.drop();
      this.drFound = [];
    });
  }

  /** Reads the book (and the accounts that link ids to names) afresh; every view that names customers calls it. */
  async load(): Promise<void> {
    await Promise.all([this.book.load(() => api.customers.list()), this.#loadAccounts()]);
  }

  /**
   * A sync finished: a renamed account's policies now carry its new name, so
   * the accounts that link ids to names are read again (the Customer column
   * follows at once), and the overview by customer if it is shown.
   */
  async replicaUpdated(): Promise<void> {
    if (!this.book.value) return;
    await Promise.all([this.#loadAccounts(), this.standings.value ? this.loadStandings() : Promise.resolve()]);
  }

  async #loadAccounts(): Promise<void> {
    const scope = sessionScope.current;
    const result = await api.accounts.list();
    if (result.ok && sessionScope.current === scope) this.accounts = result.value.items;
  }

  /** Loads the book unless it is there already (views that only name customers). */
  async ensure(): Promise<void> {
    if (!this.book.value && !this.book.loading) await this.load();
  }

  async loadStandings(): Promise<void> {
    await this.standings.load(() => api.customers.overview());
  }

  async propose(): Promise<void> {
    await this.proposals.load(() => api.customers.propose());
  }

  ofAccount(account: string | undefined | null): Customer | null {
    return this.matcher.ofAccount(account);
  }

  ofExternalId(id: string | undefined | null): Customer | null {
    return this.matcher.ofExternalId(id);
  }

  byKey(key: string): Customer | null {
    return this.matcher.byKey(key);
  }

  /** The customer whose name is exactly this (case aside): what a picker opens on Enter. */
  named(text: string): Customer | null {
    const key = nameKey(text);
    return key ? (this.customers.find((customer) => nameKey(customer.name) === key) ?? null) : null;
  }

  /** Customers whose name or one of whose ids or accounts holds the text, names starting with it first. */
  find(text: string, limit = PICKER_LIMIT): Customer[] {
    const needle = nameKey(text);
    if (!needle) return this.customers.slice(0, limit);
    const starts: Customer[] = [];
    const holds: Customer[] = [];
    for (const customer of this.customers) {
      const name = nameKey(customer.name);
      if (name.startsWith(needle)) starts.push(customer);
      else if (name.includes(needle) || [...customer.externalIds, ...customer.accounts].some((value) => nameKey(value).includes(needle))) holds.push(customer);
      if (starts.length >= limit) break;
    }
    return [...starts, ...holds].slice(0, limit);
  }

  /** Looks DR policies up by id or name in the local copy; only the newest search's answer is kept. */
  async findDr(text: string): Promise<void> {
    const ticket = this.#drSearch.begin();
    const result = text.trim() ? await api.cyber.find({ text }) : { ok: true as const, value: [] };
    if (ticket.current()) this.drFound = result.ok ? result.value : [];
  }

  /** Saves one customer; the answer's error carries the field it is about. */
  async save(draft: CustomerDraft): Promise<Result<Customer>> {
    const result = await api.customers.save(draft);
    if (result.ok) await this.#afterChange();
    return result;
  }

  async remove(key: string): Promise<Result<CustomerBook>> {
    const result = await api.customers.remove({ key });
    if (result.ok) await this.#afterChange();
    return result;
  }

  async import(csv: string): Promise<Result<CustomerImportReport>> {
    const result = await api.customers.import({ csv });
    if (result.ok) await this.#afterChange();
    return result;
  }

  get error(): AppError | null {
    return this.book.error;
  }

  async #afterChange(): Promise<void> {
    await Promise.all([this.book.load(() => api.customers.list()), this.proposals.value ? this.propose() : Promise.resolve()]);
  }
}

export const customers = new CustomersStore();
