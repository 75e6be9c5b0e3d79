import { afterEach, describe, expect, it } from 'vitest';
import { writeRecord } from '../../electron/services/replica/replica-writes.js';
import { CyberListItem } from '../../shared/api/cyber.js';
import type { SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { drActiveText } from '../../renderer/lib/customer-tiles.js';
import { value } from '../support/ipc-result.js';
import { DR_CUSTOMER, startSyncedWithCustomer } from '../support/synced-with-customer.js';
import type { FastApp } from '../unit/api-client/sandbox-fixture.js';

/**
 * Issue 26 (day17's third open edge, money18): a copy whose kept DR list holds only the list's first page (kept by a
 * version before cust16, which read a customer page's first page and never synced since) counted that page offline as
 * the whole list: the kept list did not hold the total the service stated. The total is now kept beside the list
 * (written by a sync and by every unfiltered page read), and a kept list without one, or with fewer policies than it
 * says, answers offline as a part of the list: the customer page says "at least".
 */
let app: FastApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function offlinePage(fast: FastApp, pageSize = 100): Promise<SourcedCyberPage> {
  value(await fast.call('offline.enter', { profileId: 'sandbox' }));
  try {
    return value<SourcedCyberPage>(await fast.call('cyber.list', { customerId: DR_CUSTOMER, page: 1, pageSize }));
  } finally {
    value(await fast.call('offline.leave'));
  }
}

/** The kept list once a page read live has been written through (its write is not awaited by the read): newer than `since`. */
async function keptAfter(fast: FastApp, since: string): Promise<SourcedCyberPage> {
  let page = await offlinePage(fast);
  for (let tries = 0; page.origin.fetchedAt === since && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    page = await offlinePage(fast);
  }
  expect(page.origin.fetchedAt, 'the page read live was written through').not.toBe(since);
  return page;
}

const activeIn = (page: SourcedCyberPage) => page.data.filter((item) => item.policyStatus === 'ACTIVE').length;
const tile = (page: SourcedCyberPage) => drActiveText([{ value: page, loading: false }]);

describe('a kept DR list and the total the service stated (money18)', () => {
  it('says "at least" offline for a list kept without its total or with less than it, and counts a whole one exactly', async () => {
    const fast = await startSyncedWithCustomer();
    app = fast;
    const live = value<SourcedCyberPage>(await fast.call('cyber.list', { customerId: DR_CUSTOMER, page: 1, pageSize: 100 }));
    expect(live.origin.source).toBe('service');
    expect(live.total).toBeLessThanOrEqual(100);
    const firstFive = live.data.slice(0, 5).map((item) => CyberListItem.parse(item));
    if (live.total <= firstFive.length || activeIn(live) === 0) throw new Error(`the seed gives ${DR_CUSTOMER} too few DR policies`);

    // Synced (and read whole just now): the kept list is the list, counted exactly.
    const whole = await offlinePage(fast);
    expect(whole.origin.source).toBe('replica');
    expect(whole.total).toBe(live.total);
    expect(whole.keptListPartial).toBeUndefined();
    expect(tile(whole)).toBe(`${activeIn(live)} active DR ${activeIn(live) === 1 ? 'policy' : 'policies'} in their DR lists below (not in the figure).`);

    // An older version's copy: its first page kept as the list, written without a total (as such a version writes it).
    await fast.services.replica.write((replica) => writeRecord(replica, 'cyberLists', DR_CUSTOMER, firstFive));
    const older = await offlinePage(fast);
    expect(older.total).toBe(5);
    expect(older.keptListPartial).toBe(true);
    expect(tile(older)).toMatch(/^At least /);

    // A first page read live now keeps the service's total with it: still "at least" offline, by that total.
    value(await fast.call('cyber.list', { customerId: DR_CUSTOMER, page: 1, pageSize: 5 }));
    const firstPage = await keptAfter(fast, older.origin.fetchedAt);
    expect(firstPage.total).toBe(5);
    expect(firstPage.keptListPartial).toBe(true);
    // A filtered read's total is the filtered list's: it is not taken for the list's, and the list's is carried on.
    value(await fast.call('cyber.list', { customerId: DR_CUSTOMER, page: 1, pageSize: 1, status: 'ACTIVE' }));
    const filtered = await keptAfter(fast, firstPage.origin.fetchedAt);
    expect(filtered.keptListPartial).toBe(true);

    // The whole list read live: kept whole with its total, counted exactly again.
    value(await fast.call('cyber.list', { customerId: DR_CUSTOMER, page: 1, pageSize: 100 }));
    const again = await keptAfter(fast, filtered.origin.fetchedAt);
    expect(again.total).toBe(live.total);
    expect(again.keptListPartial).toBeUndefined();
    expect(tile(again)).not.toMatch(/^At least /);
  }, 90_000);
});
