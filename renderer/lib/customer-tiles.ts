import type { CustomerTotals, PaysBy } from '../../shared/ipc/customers.js';
import type { SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { countOf } from '../../shared/format/plural.js';
import type { DrActiveCount } from './dr-active-count.js';

/**
 * What the customer page's "Active policies" and "Monthly spend" tiles say they count (day13: the spend counted
 * active policies not launched yet, and the active figure added a DR count that changed once the DR lists were read).
 */

/**
 * One of the page's DR lists as the page holds it: the answer shown (null until read), whether a read is under way,
 * and, for a list longer than its first page, its active policies counted over its pages (`counted`: null until
 * read or when a page failed; `counting` while it runs).
 */
export interface DrListShown {
  readonly value: (Pick<SourcedCyberPage, 'data' | 'total'> & Partial<Pick<SourcedCyberPage, 'keptListPartial'>>) | null;
  readonly loading: boolean;
  readonly counted?: DrActiveCount | null;
  readonly counting?: boolean;
}

/**
 * The DR part of the active tile's sentence, from the DR lists the page shows (the same items the DR section
 * lists): null when the customer has no DR id. Counted only once every list is read, so it never changes from
 * one count to another as they arrive. A list longer than its first page counts by its pages read; "at least"
 * when those could not be read (then its first page's active policies are what is known) or the bound cut them.
 */
export function drActiveText(lists: readonly DrListShown[]): string | null {
  if (lists.length === 0) return null;
  if (lists.some((list) => list.value === null)) return lists.some((list) => list.loading) ? 'DR policies: reading their DR lists…' : 'DR policies: their DR lists could not be read.';
  let active = 0;
  let partial = false;
  for (const list of lists) {
    const data = list.value?.data ?? [];
    const longer = (list.value?.total ?? 0) > data.length;
    // A reload keeps the last count on screen while it counts again.
    if (longer && list.counting && !list.counted) return 'DR policies: counting the active ones in their DR lists…';
    if (longer && list.counted) {
      active += list.counted.active;
      if (!list.counted.complete) partial = true;
      continue;
    }
    active += data.filter((item) => item.policyStatus === 'ACTIVE').length;
    // Offline, a kept list that may be only part of the list (a first page an older version kept) is "at least" too.
    if (longer || list.value?.keptListPartial) partial = true;
  }
  return `${partial ? 'At least ' : ''}${countOf(active, 'active DR policy', 'active DR policies')} in their DR lists below (not in the figure).`;
}

/** The active tile's sentence: the figure is capacity policies only, running and launching later told apart. */
export function activeMeaning(totals: Pick<CustomerTotals, 'activeCapacity' | 'launchingLater'>, dr: string | null): string {
  const running = totals.activeCapacity - totals.launchingLater;
  const capacity = `Capacity policies: ${running.toLocaleString()} running, ${totals.launchingLater.toLocaleString()} launching later.`;
  return dr ? `${capacity} ${dr}` : capacity;
}

/** The monthly spend's sentence: from how many running policies, and what those launching later will add. */
export function spendMeaning(totals: Pick<CustomerTotals, 'activeCapacity' | 'launchingLater' | 'monthlySpendLaunching'>, amount: (value: number) => string): string {
  const running = totals.activeCapacity - totals.launchingLater;
  const from = `What the ${countOf(running, 'running policy', 'running policies')} ${running === 1 ? 'costs' : 'cost'} a month, each price spread over its window.`;
  if (totals.launchingLater === 0) return from;
  return `${from} Not counted: ${countOf(totals.launchingLater, 'active policy', 'active policies')} launching later (${amount(totals.monthlySpendLaunching)} a month once running).`;
}

/**
 * "Fees paid": the cancellation fees the service stated, and the processing fees of their bought policies, which
 * differ by the way the customer pays (card or bank transfer). The service states both and not which one applies
 * (day13: the card fee was shown for every policy): the book's "Pays by" picks one (cust16); not known, and when
 * they differ, the figure is the two totals, lower first.
 */
export function feesValue(totals: FeeTotals, amount: (value: number) => string, paysBy?: PaysBy): string {
  if (paysBy) return amount(processingOf(totals, paysBy) + totals.cancellationFees);
  const [low, high] = [totals.processingFeesByCard, totals.processingFeesByBank].sort((a, b) => a - b) as [number, number];
  return low === high ? amount(low + totals.cancellationFees) : `${amount(low + totals.cancellationFees)} – ${amount(high + totals.cancellationFees)}`;
}

export function feesMeaning(totals: FeeTotals, amount: (value: number) => string, paysBy?: PaysBy): string {
  const cancellation = `${amount(totals.cancellationFees)} cancellation (as the service stated them).`;
  if (paysBy) return `${amount(processingOf(totals, paysBy))} processing (they pay ${paysBy === 'card' ? 'by card' : 'by bank transfer'}, as your book says), ${cancellation}`;
  if (totals.processingFeesByCard === totals.processingFeesByBank) return `${amount(totals.processingFeesByCard)} processing, ${cancellation}`;
  return `Processing: ${amount(totals.processingFeesByCard)} if they pay by card, ${amount(totals.processingFeesByBank)} by bank transfer (the service states both, not which they use; say which in the book); ${cancellation}`;
}

type FeeTotals = Pick<CustomerTotals, 'processingFeesByCard' | 'processingFeesByBank' | 'cancellationFees'>;

function processingOf(totals: FeeTotals, paysBy: PaysBy): number {
  return paysBy === 'card' ? totals.processingFeesByCard : totals.processingFeesByBank;
}
