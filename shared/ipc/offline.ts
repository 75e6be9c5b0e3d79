import { z } from 'zod';
import { CapacityStatus } from '../api/capacity.js';
import { CapacityRow } from '../api/readers.js';
import { SkippedItem } from '../api/tolerant.js';
import { SortOrder } from '../api/paging.js';
import { CustomerFilter } from './customer-key.js';
import { LocalSortColumn } from './local-sort.js';

export { LOCAL_SORT_COLUMNS, LocalSortColumn, type RecordSortColumn } from './local-sort.js';

/** What a searched offering is: the policies with the same instance type, platform and zone fit it. */
export const PolicyMatch = z.object({
  instanceType: z.string().max(100),
  platform: z.string().max(100),
  availabilityZone: z.string().max(100),
});
export type PolicyMatch = z.infer<typeof PolicyMatch>;

/** A calendar day as the filters send it: this computer's day, written YYYY-MM-DD. */
export const DayText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'A date is written YYYY-MM-DD.' });

/**
 * Exact filters beside the status (answered by the local copy only): a linked
 * account (as the service names it, any case), an instance type, a zone, and a
 * window the launch falls in, as instants (the renderer turns its local days
 * into them): from inclusive, to exclusive.
 */
export const CapacityFilters = z.object({
  account: z.string().trim().min(1).max(200).optional(),
  instanceType: z.string().trim().min(1).max(100).optional(),
  availabilityZone: z.string().trim().min(1).max(100).optional(),
  launchFromMs: z.number().int().optional(),
  launchToMs: z.number().int().optional(),
  /**
   * Only the policies running at this instant: ACTIVE and launched by then, or with no launch known (the rule of the
   * overview's savings tile and the customer page's "running": `launchesLater` in electron/services/overview/summarize.ts).
   */
  runningAtMs: z.number().int().optional(),
  /**
   * Exactly `qty` instances of `instanceType` (compared ignoring case): a search typed as "8 x g5.2xlarge"
   * (shared/search/quantity-search.ts), made by the main process from the query's text.
   */
  quantity: z.object({ qty: z.number().int().min(1), instanceType: z.string().min(1).max(100) }).optional(),
});
export type CapacityFilters = z.infer<typeof CapacityFilters>;

/** Frozen lists of account keys already found good: they cannot have changed since. */
const goodAccountKeys = new WeakSet<readonly string[]>();

/**
 * The account keys of a customer filter, checked where they lie instead of copied, and a frozen list only once:
 * the "no customer" filter carries every assigned account (about 6,000 at 2,000 customers) on every keystroke,
 * each query is parsed twice on its way (the repository, the copy), and the index knows a filter it has seen by
 * this very array.
 */
const AccountKeys = z.custom<readonly string[]>(
  (value) => {
    if (!Array.isArray(value)) return false;
    if (goodAccountKeys.has(value)) return true;
    const good = value.length <= 100_000 && value.every((key) => typeof key === 'string' && key.length <= 500);
    if (good && Object.isFrozen(value)) goodAccountKeys.add(value);
    return good;
  },
  { error: 'Account keys are a list of at most 100,000 texts of at most 500 characters' },
);

/** One window of the cached capacity list: filter, free-text search and sort happen in the main process. */
export const LocalCapacityQuery = z.object({
  status: CapacityStatus.optional(),
  /** Matched, case-insensitively, against id, name, instance type, zone and account. */
  text: z.string().max(200).default(''),
  sortBy: LocalSortColumn.default('createdDate'),
  sortOrder: SortOrder.default('desc'),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(100),
  /** Exact values a policy must have (the search beside the ready policies); answered by the local copy only. */
  match: PolicyMatch.optional(),
  /** One customer's policies, or those of no customer (`unassigned`); the main process resolves it to `accounts`. */
  customer: CustomerFilter.optional(),
  /**
   * The policies whose account (as accountKey compares it) is one of `keys`, or with `inside` false is none of
   * them. Made by the main process from `customer` and the book; answered by the local copy only.
   */
  accounts: z.object({ keys: AccountKeys, inside: z.boolean() }).optional(),
  filters: CapacityFilters.optional(),
  /**
   * Each policy's stated cancellation fee as [policy id, fee] (a list: an id such as `__proto__` stays data), for
   * sorting by the fee. Made by the main process from the own data when `sortBy` is `fee`.
   */
  statedFees: z.array(z.tuple([z.string().max(200), z.number()])).max(100_000).optional(),
});
export type LocalCapacityQuery = z.input<typeof LocalCapacityQuery>;
/** A query as the main process reads it: every default filled in. */
export type ParsedLocalCapacityQuery = z.output<typeof LocalCapacityQuery>;

/** Why an offline copy that exists could not be read. */
export const UNREADABLE_REASONS = [
  'key-missing', // the key that opens it is no longer in the system keychain
  'damaged', // a file failed authentication: a flipped byte, tampering, or a different key
  'incomplete', // a file is cut short or missing (a truncated shard, a lost file)
  'incompatible', // it opened but its content is not in a shape this version reads
] as const;
export const UnreadableReason = z.enum(UNREADABLE_REASONS);
export type UnreadableReason = z.infer<typeof UnreadableReason>;

/**
 * An offline copy that exists but could not be read. Known without
 * decrypting: when it was last written and how many policies it held (null
 * when that could not be told). Nothing from such a copy is ever served.
 */
export const UnreadableCopy = z.object({
  state: z.literal('unreadable'),
  reason: UnreadableReason,
  /** When the copy was last written (ISO 8601), or null when unknown. */
  lastWrittenAt: z.string().nullable(),
  /** Capacity policies the copy held, or null when unknown. */
  recordsLost: z.number().int().nullable(),
  /** When the app found it could not be read (ISO 8601). */
  detectedAt: z.string(),
});
export type UnreadableCopy = z.infer<typeof UnreadableCopy>;

export const LocalCapacityWindow = z.object({
  rows: z.array(CapacityRow),
  offset: z.number().int(),
  /** Rows matching the filter, of which `rows` is a window. */
  total: z.number().int(),
  /** When the cached list was fetched; null when nothing is cached. */
  fetchedAt: z.string().nullable(),
  /** True while the rest of a large cache is still being loaded (only the newest rows are shown). */
  loading: z.boolean(),
  /** Set when the copy could not be read: then there are no rows, ever. */
  unreadable: UnreadableCopy.optional(),
  /** Items of the list the last refresh could not keep (no id), with why. */
  leftOut: z.array(SkippedItem),
});
export type LocalCapacityWindow = z.infer<typeof LocalCapacityWindow>;


export const CacheStatus = z.object({
  /** False when there is no keychain: nothing is written to disk. */
  persistent: z.boolean(),
  reason: z.string().optional(),
  /** When each kind was fetched, for the kinds that are cached. */
  fetchedAt: z.object({
    capacities: z.string().optional(),
    capacityViews: z.string().optional(),
    accounts: z.string().optional(),
    cyberLists: z.string().optional(),
    cyberViews: z.string().optional(),
  }),
  capacityCount: z.number().int(),
  /** Files discarded because they could not be opened with the key. */
  discarded: z.number().int(),
  /** Set when a copy exists but could not be read; cleared by the next fresh sync. */
  unreadable: UnreadableCopy.optional(),
});
export type CacheStatus = z.infer<typeof CacheStatus>;

export const SyncProgress = z.object({
  phase: z.enum(['capacities', 'details', 'accounts', 'cyber', 'done', 'cancelled', 'failed']),
  fetched: z.number().int(),
  total: z.number().int(),
  message: z.string().optional(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const SyncSummary = z.object({
  capacities: z.number().int(),
  /** Items of the list the service sent without an id: not kept, and said. */
  capacitiesLeftOut: z.number().int().min(0),
  details: z.number().int(),
  accounts: z.number().int(),
  cyberPolicies: z.number().int(),
  customers: z.number().int(),
  durationMs: z.number(),
  fetchedAt: z.string(),
});
export type SyncSummary = z.infer<typeof SyncSummary>;

/**
 * The local copy changed under the views (a refresh committed): each view on screen reads its window again. The
 * version only grows within one run of the main process; views need no more than "it changed".
 */
export const CopyChanged = z.object({ version: z.number().int().min(1) });
export type CopyChanged = z.infer<typeof CopyChanged>;
