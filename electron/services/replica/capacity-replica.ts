import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import type { ParsedLocalCapacityQuery, RecordSortColumn } from '../../../shared/ipc/offline.js';
import { overviewSteps, replicaOverview, type SavingsToKeep } from '../overview/replica-overview.js';
import { commitVersion } from './commit-version.js';
import { AccountTotalsAdder, totalsByAccount, type AccountTotals } from '../customers/account-totals.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { RowParts, SortedRowIndex, type Key, type RowView } from '../search/sorted-row-index.js';
import { accountOfSearchText, type CapacityReplicaDb, type RefreshWrites, type SlimCapacityRow } from './capacity-replica-db.js';
import { accountKey } from '../../../shared/customers/matching.js';
import { markLaunch } from '../diagnostics/launch-marks.js';
import { inSlices } from './time-slices.js';
import { CheckedRecords } from './checked-records.js';
import type { FirstSyncStream } from './first-sync-stream.js';
import type { ListedAgainstStored } from './listed-against-stored.js';
import type { SliceTurn } from './requests-first.js';
import { parseQuantitySearch } from '../../../shared/search/quantity-search.js';

type Query = ParsedLocalCapacityQuery;

/** A refresh that wrote at most this many rows (and deleted none) is followed in memory row by row, not read again. */
const IN_PLACE_ROWS = 500;
/**
 * Stored rows read a statement at a time by storedHashes, a statement being the least a slice can hold: 1,000 rows
 * took 6-14 ms a statement (median) and up to 62 ms at load 20 on a 30,000-row copy, 250 rows 0.5 ms (median) for
 * the same sum; at 100,000 a 1,000-row statement was a traced turn of 69 ms at load 2-5 as a refresh began.
 */
export const STORED_HASH_BATCH = 250;
/** Slim rows the overview by customer adds up between two turns of the event loop (totalsByAccountInSteps). */
export const TOTALS_STEP_ROWS = 2_000;

const SORT_KEYS: Readonly<Record<RecordSortColumn, (row: SlimCapacityRow) => Key>> = {
  createdDate: (r) => r.createdDate,
  cidrId: (r) => r.cidrId,
  policyName: (r) => r.policyName.toLowerCase(),
  policyStatus: (r) => r.policyStatus,
  instanceType: (r) => r.policyInstance.instanceType,
  qty: (r) => r.policyInstance.qty,
  platform: (r) => r.policyInstance.platformCode,
  availabilityZone: (r) => r.zone,
  launch: (r) => r.launchMs ?? Number.NaN,
  end: (r) => r.endMs ?? Number.NaN,
  autoRenewal: (r) => (r.capacityConfiguration.autoRenewalEnabled ? 1 : 0),
  ourPrice: (r) => r.ourPrice ?? Number.NaN,
  savings: (r) => r.pricing.savings,
  savingsPercentage: (r) => r.savingsPercentage ?? Number.NaN,
};

/**
 * A text that asks for a count of one instance type ("8 x g5.2xlarge") asked as that filter, its text then empty:
 * the same question of the copy's SQL and of the rows in memory.
 */
function withQuantitySearch(query: Query): Query {
  const quantity = parseQuantitySearch(query.text);
  return quantity ? { ...query, text: '', filters: { ...query.filters, quantity } } : query;
}

const SLIM_VIEW: RowView<SlimCapacityRow> = {
  sortKeys: SORT_KEYS,
  id: (r) => r.cidrId,
  searchText: (r) => r.search,
  status: (r) => r.policyStatus,
  offering: (r) => ({ instanceType: r.policyInstance.instanceType, platform: r.policyInstance.platformCode, availabilityZone: r.zone }),
  // The account column, not the search text's last part: a name may hold the text's separator (U+0001).
  account: (r) => accountKey(r.account ?? accountOfSearchText(r.search)),
  launchMs: (r) => r.launchMs,
  quantity: (r) => r.policyInstance.qty,
};

/**
 * The capacity policies of the replica, as the app asks for them. Storage is
 * the encrypted database (one row per policy, so a write-through is one row);
 * search, sort and the overview run over slim rows held in memory, because
 * measurement showed SQL full-text search misses the two-frame keystroke goal
 * at 100,000 policies (bench/replica-storage.bench.ts). Until the slim rows
 * are loaded, the database answers the first screen directly.
 */
export class CapacityReplica {
  readonly #db: CapacityReplicaDb;
  #rows: SlimCapacityRow[] | null = null;
  #index: SortedRowIndex<SlimCapacityRow> | null = null;
  /** The records answered, parsed and checked once each (a list answer's rows are then not checked again). */
  readonly #checked = new CheckedRecords();
  #loading: Promise<void> | null = null;
  /** Bumped by every write: slim rows read before it are stale and read again. */
  #generation = 0;
  /**
   * A whole-list rewrite by another connection (the rewrite thread) may commit
   * at any moment: rows read meanwhile may belong to either list, whose row ids
   * differ, so none is kept (answers come from SQL until the rewrite has ended).
   */
  #swapping = false;

  constructor(db: CapacityReplicaDb) {
    this.#db = db;
  }

  get db(): CapacityReplicaDb {
    return this.#db;
  }

  get fetchedAt(): string | null {
    return this.#db.fetchedAt;
  }

  get count(): number {
    return this.#rows?.length ?? this.#db.count;
  }

  /** True once search, sort and the overview are answered from memory. */
  get loaded(): boolean {
    return this.#rows !== null;
  }

  /** Loads the slim rows at once (tests, benchmarks); the app uses loadInBackground. */
  load(): SlimCapacityRow[] {
    if (this.#rows) return this.#rows;
    const rows = this.#db.slimRows();
    if (!this.#swapping) this.#rows = rows;
    return rows;
  }

  /**
   * Loads the slim rows in batches that yield (about 0.6 s in all at 100,000),
   * while queries are answered by SQL; one load at a time.
   */
  loadInBackground(turn?: SliceTurn): Promise<void> {
    if (this.#rows) return Promise.resolve();
    this.#loading ??= (async () => {
      try {
        for (;;) {
          const generation = this.#generation;
          const rows = await this.#db.slimRowsInBatches(turn);
          // A write landed while loading: what was read may predate it.
          if (generation === this.#generation && !this.#swapping) {
            this.#rows = rows;
            this.#index = null;
            markLaunch('slim rows loaded');
            // Not awaited: the overview and warm() need the rows, not the index.
            void this.#prepareIndex(rows, turn);
            return;
          }
          // Read again once the rewrite under way has ended (rows read during it are never kept).
          if (this.#swapping) return;
        }
      } finally {
        this.#loading = null;
      }
    })();
    return this.#loading;
  }

  /**
   * Builds the search index and the default order in the background once the
   * rows are in: each row's parts in time slices, then the index in a turn of
   * the event loop of its own (about 30 ms at 100,000), then the default order
   * in time slices: measured, the first keystroke otherwise waited ~100 ms for
   * both.
   */
  async #prepareIndex(rows: SlimCapacityRow[], turn?: SliceTurn): Promise<void> {
    let parts: RowParts<SlimCapacityRow>;
    for (;;) {
      // A refresh since then has already moved on (or a query built the index): what it left stands.
      if (this.#rows !== rows || this.#index) return;
      const generation = this.#generation;
      const ahead = new RowParts(rows, SLIM_VIEW);
      await inSlices(() => this.#generation === generation && ahead.step(), turn);
      await yieldToEventLoop();
      await turn?.();
      // A write-through placed a row meanwhile (the rows read so far may have changed): worked out again.
      if (this.#generation === generation) {
        parts = ahead;
        break;
      }
    }
    if (this.#rows !== rows || this.#index) return;
    const index = new SortedRowIndex(rows, SLIM_VIEW, parts);
    this.#index = index;
    await yieldToEventLoop();
    await turn?.();
    // The default order in steps too: sorted in one piece it held the main process ~60 ms at 100,000 and
    // hundreds of ms at 1,000,000 (the 1M curve); a query that needs it first computes it itself.
    const order = index.orderInSteps('createdDate');
    await inSlices(() => this.#index === index && order.step(), turn);
  }

  query(asked: Query): { rows: CapacityRow[]; total: number } {
    const query = withQuantitySearch(asked);
    // The fee is own data, not a column of the database: its order is made over the rows in memory, read now if need be.
    if (!this.#rows && query.sortBy === 'fee' && !this.#swapping) this.load();
    if (!this.#rows) return this.#db.query(query);
    this.#index ??= new SortedRowIndex(this.#rows, SLIM_VIEW);
    const { rows, total } = this.#index.query(query);
    return { rows: this.#db.bodyTexts(rows.map((r) => r.rid)).map((body) => this.#checked.row(body)), total };
  }

  /**
   * A full refresh of the list (CapacityReplicaDb.replaceAll); `writtenThrough`:
   * policies written through since it began. The slim rows in memory follow a refresh
   * that wrote a few rows and deleted none row by row, as write-throughs do
   * (reading all of them again and rebuilding the index took ~90 ms in one
   * piece at 100,000); after any other they are read again.
   */
  async replaceAll(
    policies: readonly CapacityRow[],
    fetchedAt: string,
    leftOut: readonly SkippedItem[] = [],
    writtenThrough?: ReadonlyMap<string, CapacityRow>,
  ): Promise<RefreshWrites> {
    const writes = await this.#refreshing(() =>
      this.#db.replaceAll(policies, fetchedAt, leftOut, writtenThrough, () => {
        this.#swapping = true;
        this.#forgetRows();
      }),
    );
    return writes as RefreshWrites;
  }

  /**
   * A refresh over the copy from a list compared with it as its pages came (CapacityReplicaDb.replaceChanges):
   * null, nothing written, when the caller is to write the whole list instead.
   */
  replaceChanges(listed: ListedAgainstStored, fetchedAt: string, leftOut: readonly SkippedItem[] = [], writtenThrough?: ReadonlyMap<string, CapacityRow>): Promise<RefreshWrites | null> {
    return this.#refreshing(() => this.#db.replaceChanges(listed, fetchedAt, leftOut, writtenThrough));
  }

  /** Each stored row's id and record hash, read in slices on the reading connection (a refresh's first look). */
  async storedHashes(): Promise<Map<string, string | null>> {
    const hashes = new Map<string, string | null>();
    let after = 0;
    await inSlices(() => {
      const rows = this.#db.storedHashesAfter(after, STORED_HASH_BATCH);
      for (const [rid, cidrId, hash] of rows) {
        hashes.set(cidrId, hash);
        after = rid;
      }
      return rows.length === STORED_HASH_BATCH;
    });
    return hashes;
  }

  /** A refresh's write, and the slim rows in memory after it: followed row by row when it wrote a few, else read again. */
  async #refreshing(write: () => Promise<RefreshWrites | null>): Promise<RefreshWrites | null> {
    this.#generation += 1;
    const before = this.#rows;
    let written: RefreshWrites | null;
    try {
      written = await write();
    } catch (error) {
      // The old list stands, but the rows in memory are read again to be sure.
      this.#forgetRows();
      throw error;
    } finally {
      this.#swapping = false;
    }
    if (!written) return null;
    const writes = written;
    if (!before || this.#rows !== before || writes.rewrote || writes.deleted > 0 || writes.writtenIds.length > IN_PLACE_ROWS) {
      this.#forgetRows();
      return writes;
    }
    let next = 0;
    await inSlices(() => {
      const cidrId = writes.writtenIds[next++];
      if (cidrId !== undefined && this.#rows === before) this.#place(cidrId);
      return next < writes.writtenIds.length && this.#rows === before;
    });
    this.#generation += 1;
    return writes;
  }

  /**
   * A first sync written as its pages come (CapacityReplicaDb.beginStreamedRewrite); null when this copy
   * cannot take one. Until it ends no row read is kept: the thread may commit the list at any moment.
   */
  async firstSyncStream(): Promise<FirstSyncStream | null> {
    this.#generation += 1;
    this.#swapping = true;
    const stream = await this.#db.beginStreamedRewrite(
      () => this.#forgetRows(),
      () => {
        this.#swapping = false;
        this.#forgetRows();
      },
    );
    if (!stream) this.#swapping = false;
    return stream;
  }

  #forgetRows(): void {
    this.#generation += 1;
    this.#rows = null;
    this.#index = null;
  }

  /** Write-through of one policy: one row on disk, one slim row in memory, moved to its place in the sort orders. */
  upsert(policy: CapacityRow): void {
    this.#generation += 1;
    this.#db.upsert(policy);
    this.#place(policy.cidrId);
  }

  /** The slim row of a policy just written, put in its place in memory (when the rows are there). */
  #place(cidrId: string): void {
    if (!this.#rows) return;
    const row = this.#db.slimRow(cidrId);
    if (!row) return;
    const at = this.#rows.findIndex((r) => r.rid === row.rid);
    // The index moves the one row within the sort orders it keeps (a rebuild took ~90 ms at 100,000).
    if (this.#index) {
      if (at >= 0) this.#index.replace(at, row);
      else this.#index.append(row);
    } else if (at >= 0) this.#rows[at] = row;
    else this.#rows.push(row);
  }

  /**
   * Every slim row of the accounts the filter keeps, from memory; null when the database must answer (the
   * rows are not loaded, a rewrite may commit meanwhile, or a bought policy's fee is only in its record).
   * A customer page read their rows' columns from the file: a large customer's 5,000 rows lie on as many
   * pages, each decrypted.
   */
  rowsOfAccounts(filter: { readonly keys: readonly string[]; readonly inside: boolean }, bought: ReadonlySet<string>): SlimCapacityRow[] | null {
    // Until the background has built the index in slices, the database answers: building it here would be
    // one piece of half a second at 100,000 rows on the main thread.
    if (!this.#rows || !this.#index || this.#swapping) return null;
    const rows = this.#index.rowsOfAccounts(filter);
    return rows.some((row) => row.fee === undefined && bought.has(row.policyStatus)) ? null : rows;
  }

  /**
   * Counted by the database over its indexes: it needs no slim row, so a launch shows it before they are loaded.
   * `counted` hears of savings counted afresh, for keeping (keepOverviewSavings, a write).
   */
  overview(asOf: Date, counted?: (savings: SavingsToKeep) => void) {
    return this.#db.readWith((connection) => replicaOverview(connection, asOf, this.#db.leftOut, {}, counted));
  }

  /**
   * The same count in steps (overviewSteps), with the copy's version it began at: whoever runs the steps with the
   * event loop between them compares it with the version at the last step (`version`).
   */
  overviewInSteps(asOf: Date, counted?: (savings: SavingsToKeep) => void) {
    return this.#db.readWith((connection) => ({ version: commitVersion(connection), steps: overviewSteps(connection, asOf, this.#db.leftOut, {}, counted) }));
  }

  /** The copy's version as the reading connection sees it (commit-version.ts). */
  version(): string {
    return this.#db.readWith(commitVersion);
  }

  /** The savings an overview counted, kept for the next one (unless a row was written since). */
  keepOverviewSavings(savings: SavingsToKeep): void {
    this.#db.keepOverviewSavings(savings);
  }

  /** The overview by customer's figures per account, from the slim rows, as of `asOf` (what runs then), in one piece. */
  totalsByAccount(asOf: Date) {
    // The slim row keeps the price beside its pricing (which holds the savings only).
    return totalsByAccount(this.load(), SLIM_VIEW.account, asOf, (row) => row.ourPrice);
  }

  /**
   * The same figures added TOTALS_STEP_ROWS slim rows at a time, `between` awaited between two steps (the event
   * loop's turn): in one piece, 100,000 rows were a turn of 74-110 ms after every refresh, when the overview by
   * customer is read again. Null when a write changed the rows in memory meanwhile (a policy written through
   * replaces its row in place, a refresh's rows are followed in place or dropped): what was added may mix two
   * versions of the list, so the caller counts again.
   */
  totalsByAccountInSteps(asOf: Date, between: () => Promise<void>): Promise<Map<string, AccountTotals> | null> {
    const generation = this.#generation;
    // At once, not in the steps: a copy that fails to read fails here, in the caller's read (Replica.reading).
    const rows = this.load();
    return this.#totalsInSteps(rows, generation, asOf, between);
  }

  async #totalsInSteps(rows: readonly SlimCapacityRow[], generation: number, asOf: Date, between: () => Promise<void>): Promise<Map<string, AccountTotals> | null> {
    const adder = new AccountTotalsAdder(SLIM_VIEW.account, asOf, (row: SlimCapacityRow) => row.ourPrice);
    for (let from = 0; from < rows.length; from += TOTALS_STEP_ROWS) {
      if (from > 0) {
        await between();
        if (generation !== this.#generation) return null;
      }
      adder.add(rows, from, Math.min(rows.length, from + TOTALS_STEP_ROWS));
    }
    return adder.totals;
  }

  close(): Promise<void> {
    return this.#db.close();
  }
}
