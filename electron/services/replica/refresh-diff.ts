import { createHash } from 'node:crypto';
import type { CapacityRow } from '../../../shared/api/readers.js';
import { inSlices } from './time-slices.js';

/**
 * A refresh over a copy rewrites the whole list (bulk path) when more than
 * this share of its rows changed, came or went: the full-text index's row
 * triggers cost ~110 µs of CPU a row, its bulk fill ~10 µs (measured at
 * 100,000), so past about a quarter rewriting everything is the cheaper way.
 */
const REWRITE_SHARE = 0.25;

/** One stored row as a refresh compares it: its row id and the hash of its stored record. */
export interface StoredRow {
  readonly rid: number;
  /** Null in a copy written before the column existed: the row is then taken as changed. */
  readonly hash: string | null;
}

/** What a refresh over a copy has to write, found by comparing each fetched row with the stored one. */
export interface RefreshDiff {
  /** Indexes in the fetched list of the rows that are new or differ from the stored ones. */
  readonly changed: number[];
  /** Row ids of stored rows the fetched list no longer holds. */
  readonly gone: number[];
  /** True when so much differs that the whole list is cheaper to rewrite. */
  readonly rewrite: boolean;
}

/** The record as it is stored (one JSON text) and compared. */
export function storedBody(policy: CapacityRow): string {
  return JSON.stringify(policy);
}

/** How a stored record's fingerprint is made: here, and by the rewrite thread, which hashes the rows it inserts. */
export const CONTENT_HASH = { algorithm: 'sha1', encoding: 'base64' } as const;

/** A short fingerprint of a stored record: equal records, equal hashes. */
export function contentHash(body: string): string {
  return createHash(CONTENT_HASH.algorithm).update(body).digest(CONTENT_HASH.encoding);
}

/**
 * Compares the fetched list with the stored rows in time slices (stringifying
 * and hashing 100,000 records takes about a second of CPU): which rows to
 * write, which to delete, or whether to rewrite all.
 */
export async function diffWithStored(list: readonly CapacityRow[], stored: ReadonlyMap<string, StoredRow>): Promise<RefreshDiff> {
  if (stored.size === 0) return { changed: [], gone: [], rewrite: true };
  const changed: number[] = [];
  const listed = new Set<string>();
  let next = 0;
  await inSlices(() => {
    const policy = list[next];
    if (!policy) return false;
    const kept = stored.get(policy.cidrId);
    listed.add(policy.cidrId);
    if (!kept || kept.hash !== contentHash(storedBody(policy))) changed.push(next);
    next += 1;
    return next < list.length;
  });
  // The stored rows the list no longer holds, in slices too: a copy of the stored map, taken at once, was
  // one piece of ~450 ms at 100,000 under load (stall tracer, bench/refresh-stall).
  const gone: number[] = [];
  const storedRows = stored.entries();
  await inSlices(() => {
    const entry = storedRows.next();
    if (entry.done) return false;
    if (!listed.has(entry.value[0])) gone.push(entry.value[1].rid);
    return true;
  });
  return { changed, gone, rewrite: rewriteIsCheaper(changed.length + gone.length, stored.size, list.length) };
}

/** True when `differing` rows (changed, new or gone) are so many of the list that rewriting it whole is cheaper. */
export function rewriteIsCheaper(differing: number, stored: number, listed: number): boolean {
  return stored === 0 || differing > REWRITE_SHARE * Math.max(stored, listed);
}

/**
 * The fetched list with the policies written through since the refresh began
 * put back as they were written (a purchase or a cancel answered after the
 * list's page was read): the refresh's older page must not undo them. One
 * written through and absent from the list (bought after its last page) leads
 * it, as the newest.
 */
export function withWrittenThrough(list: readonly CapacityRow[], writtenThrough: ReadonlyMap<string, CapacityRow>): readonly CapacityRow[] {
  if (writtenThrough.size === 0) return list;
  const inList = new Set<string>();
  const merged = list.map((policy) => {
    inList.add(policy.cidrId);
    return writtenThrough.get(policy.cidrId) ?? policy;
  });
  const added = [...writtenThrough.values()].filter((row) => !inList.has(row.cidrId));
  return [...added, ...merged];
}

/**
 * The list a refresh writes, each id once. An id can come twice when the
 * service's offset paging shifted while its pages were read (a policy moved
 * onto a page not yet read). Of the two copies the one from the later page is
 * kept: the pages are asked for in order, so the later page was asked for
 * after the other, and is the newer read. A refresh's list is stored newest
 * first (the service's oldest-first pages reversed, replica-sync.ts), so that
 * copy is the first one here. Both ways of writing a refresh (changed rows or
 * the whole list) write this list, so both keep the same copy.
 */
export async function oneCopyEach(list: readonly CapacityRow[]): Promise<readonly CapacityRow[]> {
  // In slices: at 100,000 rows this walk was one piece of up to 300 ms under load (stall tracer).
  const seen = new Set<string>();
  const kept: CapacityRow[] = [];
  let next = 0;
  await inSlices(() => {
    const policy = list[next++];
    if (!policy) return false;
    if (!seen.has(policy.cidrId)) {
      seen.add(policy.cidrId);
      kept.push(policy);
    }
    return next < list.length;
  });
  return kept.length === list.length ? list : kept;
}
