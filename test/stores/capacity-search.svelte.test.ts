import { calls, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SearchInput } from '../../shared/api/capacity.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { READY_PAGE_SIZE, readyPolicies, searchResults } from '../../renderer/stores/capacity-search.svelte.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { UNREACHABLE, offeringsOf, windowOf } from './support/fixtures.js';

const query = (instanceType: string): SearchInput => ({
  instanceType,
  platform: 'Linux/UNIX',
  availabilityZone: 'use1-az1',
  startDate: '2026-12-01',
  endDate: '2026-12-08',
  clientUtcOffset: 0,
});

let runs = 0;
beforeEach(() => {
  resetFakeApi();
  runs += 1;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
});

describe('the ready-for-purchase list', () => {
  it('reads on first open, pages on with no duplicates, and does not read again while fresh', async () => {
    const reads = hold('capacity.list');
    readyPolicies.open();
    expect(readyPolicies.loading).toBe(true);
    expect(nth(reads, 0).input).toMatchObject({ offset: 0, limit: READY_PAGE_SIZE, status: 'READY_FOR_PURCHASE' });
    nth(reads, 0).ok(windowOf(['sc_1', 'sc_2'], 3));
    await settle();
    expect(readyPolicies.items.map((p) => p.cidrId)).toEqual(['sc_1', 'sc_2']);
    expect(readyPolicies.hasMore).toBe(true);

    const more = readyPolicies.loadMore();
    expect(nth(reads, 1).input).toMatchObject({ offset: READY_PAGE_SIZE });
    nth(reads, 1).ok(windowOf(['sc_2', 'sc_3'], 3));
    await more;
    expect(readyPolicies.items.map((p) => p.cidrId)).toEqual(['sc_1', 'sc_2', 'sc_3']);

    readyPolicies.open();
    expect(reads).toHaveLength(2);
    readyPolicies.invalidate();
    readyPolicies.open();
    expect(reads).toHaveLength(3);
  });

  it('drops an older page that arrives after a newer reload', async () => {
    const reads = hold('capacity.list');
    const older = readyPolicies.reload();
    const newer = readyPolicies.reload();
    nth(reads, 1).ok(windowOf(['sc_new'], 1));
    await newer;
    nth(reads, 0).ok(windowOf(['sc_old'], 1));
    await older;
    expect(readyPolicies.items.map((p) => p.cidrId)).toEqual(['sc_new']);
  });

  it("empties at once when another user signs in, drops the page under way, and reads theirs on open", async () => {
    const reads = hold('capacity.list');
    const first = readyPolicies.reload();
    nth(reads, 0).ok(windowOf(['sc_alex'], 1));
    await first;
    const late = readyPolicies.reload();
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    expect(readyPolicies.items).toEqual([]);
    expect(readyPolicies.total).toBeNull();
    nth(reads, 1).ok(windowOf(['sc_alex'], 1));
    await late;
    expect(readyPolicies.items).toEqual([]);
    readyPolicies.open();
    expect(reads).toHaveLength(3);
  });

  it('keeps the rows on a failure and reads again on the next open', async () => {
    const reads = hold('capacity.list');
    const first = readyPolicies.reload();
    nth(reads, 0).ok(windowOf(['sc_1'], 1));
    await first;
    const failing = readyPolicies.reload();
    nth(reads, 1).fail(UNREACHABLE);
    await failing;
    expect(readyPolicies.error).toEqual(UNREACHABLE);
    expect(readyPolicies.items).toHaveLength(1);
    readyPolicies.open();
    expect(reads).toHaveLength(3);
  });
});

describe('the search results', () => {
  it('answers the newest search only: an older answer arriving later is dropped', async () => {
    const searches = hold('capacity.search');
    const older = searchResults.run(query('p4d.24xlarge'));
    const newer = searchResults.run(query('p5.48xlarge'));
    expect(searchResults.busy).toBe(true);
    nth(searches, 1).ok(offeringsOf(['offer-p5']));
    await newer;
    nth(searches, 0).ok(offeringsOf(['offer-p4d']));
    expect(await older).toBeNull();
    expect(searchResults.offerings?.map((o) => o.title)).toEqual(['offer-p5']);
    expect(searchResults.query?.instanceType).toBe('p5.48xlarge');
    expect(searchResults.busy).toBe(false);
  });

  it('returns the failure for the form and keeps the query it answers', async () => {
    const searches = hold('capacity.search');
    const run = searchResults.run(query('p5.48xlarge'));
    nth(searches, 0).fail(UNREACHABLE);
    expect(await run).toEqual(UNREACHABLE);
    expect(searchResults.offerings).toBeNull();
    expect(searchResults.query?.instanceType).toBe('p5.48xlarge');
  });

  it('puts away the record of the last purchase as soon as a new search starts', async () => {
    const searches = hold('capacity.search');
    searchResults.lastPurchase = syntheticPolicies(1)[0] ?? null;
    expect(searchResults.lastPurchase).not.toBeNull();
    const next = searchResults.run(query('p5.48xlarge'));
    expect(searchResults.lastPurchase).toBeNull();
    nth(searches, 0).ok(offeringsOf(['offer-p5']));
    await next;
    expect(searchResults.lastPurchase).toBeNull();
  });

  it("drops another user's results, purchase record and the search under way", async () => {
    const searches = hold('capacity.search');
    const done = searchResults.run(query('p5.48xlarge'));
    nth(searches, 0).ok(offeringsOf(['offer-p5']));
    await done;
    const late = searchResults.run(query('p4d.24xlarge'));
    searchResults.lastPurchase = syntheticPolicies(1)[0] ?? null;
    expect(searchResults.lastPurchase).not.toBeNull();
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    expect(searchResults.offerings).toBeNull();
    expect(searchResults.lastPurchase).toBeNull();
    nth(searches, 1).ok(offeringsOf(['offer-p4d']));
    await late;
    expect(searchResults.offerings).toBeNull();
    expect(calls.filter((call) => call.channel === 'capacity.search')).toHaveLength(2);
  });
});
