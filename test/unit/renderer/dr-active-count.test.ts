import { describe, expect, it } from 'vitest';
import { countActiveDr } from '../../../renderer/lib/dr-active-count.js';
import type { Result } from '../../../shared/ipc/result.js';

type Item = { cidrId: string; policyName: string; policyStatus: string; createdDate: string };
const item = (n: number, policyStatus: string): Item => ({ cidrId: `sc_${5_000_000 + n}`, policyName: `DR ${n}`, policyStatus, createdDate: '2026-01-01T00:00:00Z' });
/** 250 policies, every third active: 84 active, most of them beyond the first page of 100. */
const LIST = Array.from({ length: 250 }, (_, n) => item(n, n % 3 === 0 ? 'ACTIVE' : 'EXPIRED'));
const pageOf = (list: readonly Item[], page: number, size = 100) => ({ data: list.slice((page - 1) * size, page * size), total: list.length });

describe('countActiveDr (cust16)', () => {
  it('counts the active policies over every page, not the first page alone', async () => {
    const asked: number[] = [];
    const counted = await countActiveDr(pageOf(LIST, 1), async (page) => (asked.push(page), { ok: true, value: pageOf(LIST, page) }), 100);
    expect(counted).toEqual({ ok: true, value: { active: LIST.filter((i) => i.policyStatus === 'ACTIVE').length, complete: true } });
    expect(LIST.filter((i) => i.policyStatus === 'ACTIVE').length).toBe(84);
    expect(pageOf(LIST, 1).data.filter((i) => i.policyStatus === 'ACTIVE').length).toBe(34);
    expect(asked).toEqual([2, 3]);
  });

  it('counts a policy seen on two pages once (one added meanwhile moved the rest down)', async () => {
    const first = pageOf(LIST, 1);
    // Page 2 read after a new policy was listed first: its first item is the first page's last.
    const moved = [item(999, 'EXPIRED'), ...LIST];
    const counted = await countActiveDr(first, async (page) => ({ ok: true, value: pageOf(moved, page) }), 100);
    expect(counted.ok && counted.value.active).toBe(84);
  });

  it('stops at its bound and says the count is not complete', async () => {
    const counted = await countActiveDr(pageOf(LIST, 1), async (page) => ({ ok: true, value: pageOf(LIST, page) }), 100, 2);
    expect(counted).toEqual({ ok: true, value: { active: 67, complete: false } });
  });

  it('fails when a page fails, so the page says "at least" rather than a wrong exact count', async () => {
    const failure: Result<never> = { ok: false, error: { kind: 'offline', message: 'The service cannot be reached' } };
    const counted = await countActiveDr(pageOf(LIST, 1), async (page) => (page === 3 ? failure : { ok: true, value: pageOf(LIST, page) }), 100);
    expect(counted.ok).toBe(false);
  });

  // review16: the service went away after the first page; the next page is answered by the copy, whose kept list
  // holds only the 100 items just written through (PolicyRepository.cyberList: liveOrLocal, queryCyberItems): an
  // empty page 2 of a list said to hold 250. The count is that of the first page alone: never "exact".
  it('does not call a count exact when a later page, answered by the copy, ends the list before the total the first page gave', async () => {
    const kept = pageOf(LIST, 1).data;
    const counted = await countActiveDr(pageOf(LIST, 1), async (page) => ({ ok: true, value: { ...pageOf(kept, page) } }), 100);
    expect(counted).toEqual({ ok: true, value: { active: 34, complete: false } });
  });

  it('does not call a count exact when the list lost a policy between its pages (one item moved up past the pages read)', async () => {
    const shrunk = LIST.filter((_, n) => n !== 5);
    const counted = await countActiveDr(pageOf(LIST, 1), async (page) => ({ ok: true, value: pageOf(shrunk, page) }), 100);
    // Item 100 moved up to page 1 after it was read: never seen, so the count cannot say it is exact.
    expect(counted.ok && counted.value.complete).toBe(false);
  });

  it('does not call a count exact when its pages came from different places (the first from the service, a later one from the copy)', async () => {
    const live = { source: 'service' as const, fetchedAt: '2026-11-28T02:00:00Z' };
    const copy = { source: 'replica' as const, fetchedAt: '2026-11-01T00:00:00Z', serviceUnreachable: true };
    // The copy kept the whole list a month ago: as long as the service's, but not the same moment's.
    const counted = await countActiveDr({ ...pageOf(LIST, 1), origin: live }, async (page) => ({ ok: true, value: { ...pageOf(LIST, page), origin: copy } }), 100);
    expect(counted.ok && counted.value.complete).toBe(false);
  });

  it('does not call a count exact when a page came from a kept list that may be only part of the list (money18)', async () => {
    // The copy keeps 200 of the 250 (a first page and a second read live, the service gone before the third).
    const kept = { data: LIST.slice(0, 100), total: 200, keptListPartial: true };
    const counted = await countActiveDr(kept, async (page) => ({ ok: true, value: { ...pageOf(LIST.slice(0, 200), page), keptListPartial: true } }), 100);
    expect(counted).toEqual({ ok: true, value: { active: 67, complete: false } });
  });
});
