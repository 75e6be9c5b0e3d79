import type { ActivityEntry } from '../own-data/activity.js';
import type { StatedFee } from '../ipc/activity.js';

/** An entry that records the fee the service stated in its answer to a cancel this app sent. */
export function isStatedFee(entry: ActivityEntry): entry is ActivityEntry & { fee: number } {
  return entry.action === 'cancel' && entry.outcome === 'succeeded' && entry.fee !== null;
}

/** Each policy's latest stated fee, from activity entries in any order. */
export function latestStatedFees(entries: readonly ActivityEntry[]): StatedFee[] {
  const latest = new Map<string, StatedFee>();
  for (const entry of entries) {
    if (!isStatedFee(entry)) continue;
    const known = latest.get(entry.cidrId);
    if (!known || entry.at > known.at) latest.set(entry.cidrId, { cidrId: entry.cidrId, fee: entry.fee, at: entry.at });
  }
  return [...latest.values()];
}

/** The sum of the fees whose cancel happened in the calendar month of `now`, in this computer's time zone; cents kept exact. */
export function feesInMonthOf(fees: Iterable<StatedFee>, now: Date): { total: number; count: number } {
  let cents = 0;
  let count = 0;
  for (const { fee, at } of fees) {
    const when = new Date(at);
    if (when.getFullYear() !== now.getFullYear() || when.getMonth() !== now.getMonth()) continue;
    cents += Math.round(fee * 100);
    count += 1;
  }
  return { total: cents / 100, count };
}
