import { CustomerMatcher, type AccountAlias } from '../../../shared/customers/matching.js';
import { proposeCustomers } from '../../../shared/customers/proposals.js';
import type { ActivityEntry } from '../../../shared/own-data/activity.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import { UNASSIGNED } from '../../../shared/ipc/customer-key.js';
import { CUSTOMER_ROWS, type Customer, type CustomerPage, type CustomerProposal, type CustomerPolicies, type CustomersOverview, type CustomerStanding, type DrFound } from '../../../shared/ipc/customers.js';
import type { LocalCapacityQuery } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { CurrentReplica } from '../replica/current-replica.js';
import { capacitiesFetchedAt, capacityTotalsByAccount, customerCapacities, readAccounts, readCyberList, recordIds } from '../replica/replica-reads.js';
import type { OwnDataService } from '../own-data/own-data-service.js';
import type { CustomerOfPolicy } from '../worklist/customer-of.js';
import type { CustomerBookService } from './customer-book.js';
import { BOUGHT_STATUSES, summarizeCustomer } from './customer-summary.js';
import type { AccountFilter } from './replica-accounts.js';
import { cents } from '../overview/summarize.js';
import { tupleKey } from '../../../shared/format/tuple-key.js';

type CustomerChannels =
  | 'customers.list'
  | 'customers.save'
  | 'customers.remove'
  | 'customers.import'
  | 'customers.propose'
  | 'customers.page'
  | 'customers.policies'
  | 'customers.overview'
  | 'cyber.find';

export interface CustomerHandlerDeps {
  readonly book: CustomerBookService;
  readonly replica: CurrentReplica;
  /** The activity record of their policies (own data), in one read per kind. */
  readonly ownData: Pick<OwnDataService, 'activityOfPolicies'>;
  /** External customer ids used in the DR view with this environment, most recent first. */
  readonly recentExternalIds: () => readonly string[];
  readonly now?: () => Date;
}

/** Activity entries a customer page shows. */
const ACTIVITY_SHOWN = 100;
/** DR policies the palette is offered at most. */
const FOUND_LIMIT = 8;
/** Customers in each of the overview's top lists. */
const TOP = 10;

/** No book open: no policy has a customer. */
const ofNoCustomer = (): null => null;

/**
 * The customer book's channels, and the customer filter of the capacity list:
 * the book (own data) matched against the local copy of the policies.
 */
export class CustomerHandlers {
  readonly #deps: CustomerHandlerDeps;
  /**
   * The matcher of the last filter asked, kept while the owner, the book and
   * the linked accounts stay the same (every keystroke of a filtered search
   * asks). The accounts are part of it: a re-sync that renames an account
   * changes the name its policies carry, and a customer holding the account by
   * id must own them under the new name at once.
   */
  #kept: {
    readonly owner: string;
    readonly version: number;
    /** The linked accounts as read (the copy hands back the same list until a commit), and as one comparable text. */
    readonly linked: readonly AccountAlias[];
    readonly accounts: string;
    readonly matcher: CustomerMatcher;
  } | null = null;

  /**
   * One namer per matcher (`customerOfAccount`), and the last namer with what it names (`namingOf`): a matcher made
   * again that names every account as the last one did gets the same namer, so the worklist's kept answers
   * (compared by namer) outlive it: a sync writes the linked accounts after its list, and with no customer in the
   * book, or accounts that name no one anew, nothing a namer answers has changed (issue 28).
   */
  readonly #namers = new WeakMap<CustomerMatcher, CustomerOfPolicy>();
  #lastNamer: { readonly naming: string; readonly namer: CustomerOfPolicy } | null = null;
  /**
   * The account filters made from each matcher, by customer (or UNASSIGNED): every keystroke of a filtered search
   * asks again, and "no customer" lists every assigned account (about 6,000 at 2,000 customers), which took a set
   * and an array built per keystroke. The same filter (the same `keys` array) also lets the index know it at once.
   */
  readonly #filters = new WeakMap<CustomerMatcher, Map<string, AccountFilter>>();
  /**
   * The last proposals, with what they were made from: the book and the linked accounts by identity (each the same
   * array until the own data or the copy changes) and the recent DR ids as text. The "no customer" filter asks at each
   * choice; made again, they read every linked account against a matcher of the whole book (one turn of 200-250 ms
   * at load 33 while a refresh's pages were read: the longest of that phase beside the pages; issue 25, stall14).
   */
  #proposed: {
    readonly customers: readonly Customer[];
    readonly linked: readonly AccountAlias[];
    readonly recent: string;
    readonly proposals: readonly CustomerProposal[];
  } | null = null;

  constructor(deps: CustomerHandlerDeps) {
    this.#deps = deps;
  }

  handlers(): Pick<Handlers, CustomerChannels> {
    const { book } = this.#deps;
    return {
      'customers.list': () => book.book(),
      'customers.save': (draft) => book.save(draft),
      'customers.remove': ({ key }) => book.remove(key),
      'customers.import': ({ csv }) => book.import(csv),
      'customers.propose': () => this.#propose(),
      'customers.page': ({ key }) => this.#page(key),
      'customers.policies': ({ key }) => this.#policies(key),
      'customers.overview': () => this.#overview(),
      'cyber.find': ({ text }) => this.#findDr(text),
    };
  }

  async #propose(): Promise<CustomerProposal[]> {
    // The DR ids proposed are those used lately and those whose list the copy keeps (ux14).
    const [customers, linked, recentExternalIds] = await Promise.all([this.#deps.book.customers(), this.#linkedAccounts(), this.#knownExternalIds()]);
    const recent = tupleKey(...recentExternalIds);
    const kept = this.#proposed;
    if (kept?.customers === customers && kept.linked === linked && kept.recent === recent) return [...kept.proposals];
    const proposals = proposeCustomers(customers, { recentExternalIds, linkedAccounts: linked });
    this.#proposed = { customers, linked, recent, proposals };
    return [...proposals];
  }

  /** DR policies whose id or name holds the text, in the copy's lists of the book's ids and those used lately. */
  async #findDr(text: string): Promise<DrFound[]> {
    const needle = text.trim().toLowerCase();
    if (!needle) return [];
    const ids = new Set([...(await this.#deps.book.customers()).flatMap((customer) => customer.externalIds), ...this.#deps.recentExternalIds()]);
    const found: DrFound[] = [];
    for (const customerId of ids) {
      for (const item of (await this.#deps.replica.read((replica) => readCyberList(replica, customerId)))?.value ?? []) {
        if (item.cidrId.toLowerCase().includes(needle) || (item.policyName ?? '').toLowerCase().includes(needle)) {
          found.push({ cidrId: item.cidrId, policyName: item.policyName, policyStatus: item.policyStatus, customerId });
          if (found.length >= FOUND_LIMIT) return found;
        }
      }
    }
    return found;
  }

  /** A capacity-list query with its customer turned into the accounts the copy filters on. */
  async scoped<Q extends LocalCapacityQuery>(query: Q): Promise<Q> {
    if (!query.customer) return query;
    const matcher = await this.#keptMatcher();
    if (query.customer !== UNASSIGNED && !matcher.byKey(query.customer)) {
      throw new AppFailure({ kind: 'not-found', field: 'customer', message: 'That customer is no longer in the book.' });
    }
    return { ...query, accounts: this.#filterOf(matcher, query.customer) };
  }

  /** The account filter of a customer (or of no customer), made once per matcher. */
  #filterOf(matcher: CustomerMatcher, customer: string): AccountFilter {
    let filters = this.#filters.get(matcher);
    if (!filters) {
      filters = new Map();
      this.#filters.set(matcher, filters);
    }
    let filter = filters.get(customer);
    if (!filter) {
      filter =
        customer === UNASSIGNED
          ? { keys: Object.freeze([...matcher.assignedAccountKeys()]), inside: false }
          : { keys: Object.freeze([...matcher.accountKeysOf(customer)]), inside: true };
      filters.set(customer, filter);
    }
    return filter;
  }

  /**
   * The DR ids this person is known to have: those used lately (most recent first), then every one whose DR list the
   * copy keeps (the profile remembers only the last few). The service lists no customer ids (a DR list is asked
   * per id), so an id never opened in the DR view nor written in the book is not known: the Customers view says so.
   */
  async #knownExternalIds(): Promise<string[]> {
    const recent = this.#deps.recentExternalIds();
    const kept = (await this.#deps.replica.read((replica) => recordIds(replica, 'cyberLists')).catch(() => null)) ?? [];
    const seen = new Set(recent.map((id) => id.toUpperCase()));
    return [...recent, ...kept.filter((id) => !seen.has(id.toUpperCase())).sort()];
  }

  async #linkedAccounts(): Promise<AccountAlias[]> {
    return (await this.#deps.replica.read(readAccounts))?.value ?? [];
  }

  /**
   * Names a policy's customer from its account (null when it belongs to none): the worklist and calendar ask it once
   * per answer. The same namer while the book and the linked accounts stay the same, so what was named can be kept.
   */
  async customerOfAccount(): Promise<CustomerOfPolicy> {
    const matcher = await this.#keptMatcher().catch((error: unknown) => {
      // Nobody's book is open (no one signed in or reviewing offline): then no policy has a customer.
      if (error instanceof AppFailure && error.error.kind === 'unauthorized') return null;
      throw error;
    });
    if (!matcher) return ofNoCustomer;
    let namer = this.#namers.get(matcher);
    if (!namer) {
      const naming = namingOf(matcher);
      namer = this.#lastNamer?.naming === naming ? this.#lastNamer.namer : ({ account }) => matcher.ofAccount(account)?.name ?? null;
      this.#lastNamer = { naming, namer };
      this.#namers.set(matcher, namer);
    }
    return namer;
  }

  async #keptMatcher(): Promise<CustomerMatcher> {
    const who = this.#deps.replica.owner();
    const owner = who ? tupleKey(who.profileId, who.username) : '';
    const version = this.#deps.book.version;
    // From the copy as it is open, without checking its files again: every keystroke of a filtered search
    // asks, the query that follows checks them (a directory read, up to 15 ms and more on a loaded machine).
    const linked = (await this.#deps.replica.read(readAccounts, { checkFiles: false }))?.value ?? [];
    const kept = this.#kept;
    if (kept?.owner === owner && kept.version === version && kept.linked === linked) return kept.matcher;
    const accounts = aliasesOf(linked);
    if (kept?.owner === owner && kept.version === version && kept.accounts === accounts) {
      this.#kept = { ...kept, linked };
      return kept.matcher;
    }
    const matcher = await this.#matcher(undefined, linked);
    this.#kept = { owner, version, linked, accounts, matcher };
    return matcher;
  }

  async #matcher(customers?: readonly Customer[], linked?: readonly AccountAlias[]): Promise<CustomerMatcher> {
    return new CustomerMatcher(customers ?? (await this.#deps.book.customers()), linked ?? (await this.#linkedAccounts()));
  }

  /**
   * A customer of the book and their capacity policies' figure columns (from the slim rows in memory, else
   * through the account index), the newest `listed` of them as rows.
   */
  async #theirs(key: string, listed: number) {
    // The matcher kept for the filter: reading and checking 2,000 customers again took a good part of a page's time.
    const matcher = await this.#keptMatcher();
    const customer = matcher.byKey(key);
    if (!customer) throw new AppFailure({ kind: 'not-found', message: 'That customer is no longer in the book.' });
    const filter = this.#filterOf(matcher, key);
    const found = await this.#deps.replica.read((open) => customerCapacities(open, filter, listed, BOUGHT_STATUSES));
    return { customer, found };
  }

  async #policies(key: string): Promise<CustomerPolicies> {
    const { found } = await this.#theirs(key, CUSTOMER_ROWS.listed);
    return { rows: found?.newest ?? [], total: found?.rows.length ?? 0 };
  }

  async #page(key: string): Promise<CustomerPage> {
    const { replica } = this.#deps;
    const asOf = this.#deps.now?.() ?? new Date();
    const { customer, found } = await this.#theirs(key, CUSTOMER_ROWS.first);
    const rows = found?.rows ?? [];
    const drLists = await Promise.all(customer.externalIds.map((id) => replica.read((open) => readCyberList(open, id))));
    const drItems = drLists.flatMap((list) => list?.value ?? []);
    // One read per kind for all their policies: a read per policy (a file check each) took most of a page's time.
    const [capacityActivity, drActivity] = await Promise.all([
      this.#deps.ownData.activityOfPolicies('capacity', rows.map((row) => row.cidrId)),
      this.#deps.ownData.activityOfPolicies('cyber', drItems.map((item) => item.cidrId)),
    ]);
    const activity: ActivityEntry[] = [...capacityActivity, ...drActivity].sort((a, b) => b.at.localeCompare(a.at));
    const figures = summarizeCustomer(rows, activity, asOf);
    return {
      customer,
      asOf: asOf.toISOString(),
      fetchedAt: found?.fetchedAt ?? null,
      // Capacity only: the DR policies are counted from the DR lists the page reads and shows (a count from the
      // copy's kept lists here changed once that read wrote its page through: the figure jumped, day13).
      totals: figures.totals,
      horizons: figures.horizons,
      milestones: figures.milestones,
      capacity: { rows: found?.newest ?? [], total: rows.length },
      activity: activity.slice(0, ACTIVITY_SHOWN),
    };
  }

  async #overview(): Promise<CustomersOverview> {
    const customers = await this.#deps.book.customers();
    const matcher = await this.#matcher(customers);
    const asOf = this.#deps.now?.() ?? new Date();
    const [byAccount, fetchedAt] = await Promise.all([this.#deps.replica.read((open) => capacityTotalsByAccount(open, asOf)), this.#deps.replica.read(capacitiesFetchedAt)]);
    const standings = new Map<string, CustomerStanding>(
      customers.map((customer) => [customer.key, { key: customer.key, name: customer.name, activePolicies: 0, monthlySpend: 0, monthlySavings: 0 }]),
    );
    let unassignedActive = 0;
    for (const [account, totals] of byAccount ?? []) {
      const owner = matcher.ofAccount(account);
      const standing = owner ? standings.get(owner.key) : undefined;
      if (!standing) {
        unassignedActive += totals.active;
        continue;
      }
      standing.activePolicies += totals.active;
      standing.monthlySpend += totals.monthlySpend;
      standing.monthlySavings += totals.monthlySavings;
    }
    const all = [...standings.values()]
      .filter((standing) => standing.activePolicies > 0)
      .map((standing) => ({ ...standing, monthlySpend: cents(standing.monthlySpend), monthlySavings: cents(standing.monthlySavings) }));
    const top = (by: (s: CustomerStanding) => number) => [...all].sort((a, b) => by(b) - by(a) || a.name.localeCompare(b.name)).slice(0, TOP);
    return {
      fetchedAt,
      bySpend: top((s) => s.monthlySpend),
      bySavings: top((s) => s.monthlySavings),
      unassignedActive,
      customers: customers.length,
    };
  }
}

/** What a matcher takes from the linked accounts (each id beside its name), as one comparable text. */
/** What a matcher's namer answers, as one comparable text: each account key with the name of its customer. */
function namingOf(matcher: CustomerMatcher): string {
  return [...matcher.assignedAccountKeys()]
    .map((key) => `${key}\u0001${matcher.ofAccountKey(key)?.name ?? ''}`)
    .sort()
    .join('\u0002');
}

function aliasesOf(accounts: readonly AccountAlias[]): string {
  return accounts.map((account) => `${account.accountId ?? ''}\u0001${account.accountName ?? ''}`).join('\u0002');
}
