import { describe, expect, it } from 'vitest';
import { fetchAllPages } from '../../../electron/services/bulk/fetch-all-pages.js';

function source(total: number, delay = () => Math.random() * 5) {
  const items = Array.from({ length: total }, (_, i) => i);
  let inFlight = 0;
  let maxInFlight = 0;
  const requested: number[] = [];
  return {
    get maxInFlight() {
      return maxInFlight;
    },
    requested,
    fetchPage: async (page: number, pageSize: number, signal: AbortSignal) => {
      requested.push(page);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, delay()));
      inFlight -= 1;
      if (signal.aborted) throw new Error('aborted');
      return { data: items.slice((page - 1) * pageSize, page * pageSize), total };
    },
  };
}

describe('fetchAllPages', () => {
  it('returns every item in order, with bounded concurrency and progress', async () => {
    const s = source(1003);
    const progress: number[] = [];
    const all = await fetchAllPages({ fetchPage: s.fetchPage, idOf: String, pageSize: 100, concurrency: 3, onProgress: (p) => progress.push(p.fetched) });
    expect(all).toEqual(Array.from({ length: 1003 }, (_, i) => i));
    expect(s.maxInFlight).toBeLessThanOrEqual(3);
    expect(new Set(s.requested).size).toBe(11);
    expect(progress.at(-1)).toBe(1003);
  });

  it('handles an empty list with one request', async () => {
    const s = source(0);
    expect(await fetchAllPages({ fetchPage: s.fetchPage, idOf: String, pageSize: 100 })).toEqual([]);
    expect(s.requested).toEqual([1]);
  });

  it('stops when cancelled', async () => {
    const s = source(5000, () => 5);
    const controller = new AbortController();
    const run = fetchAllPages({
      fetchPage: s.fetchPage,
      idOf: String,
      pageSize: 10,
      concurrency: 2,
      signal: controller.signal,
      onProgress: (p) => p.fetched >= 50 && controller.abort(),
    });
    await expect(run).rejects.toBeTruthy();
    expect(s.requested.length).toBeLessThan(20);
  });

  it('does not believe a total larger than the list: stops at the empty page and says what the pages held', async () => {
    const requested: number[] = [];
    const counts: { said: number; kept: number }[] = [];
    const all = await fetchAllPages({
      pageSize: 10,
      concurrency: 1,
      idOf: String,
      onCount: (count) => counts.push(count),
      fetchPage: async (page) => {
        requested.push(page);
        return { data: page <= 3 ? Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i) : [], total: 1_000_000 };
      },
    });
    expect(all).toHaveLength(30);
    expect(requested).toEqual([1, 2, 3, 4]);
    expect(counts).toEqual([{ said: 1_000_000, kept: 30 }]);
  });

  it('an item left out of a page (no id) still makes the page full: the list goes on', async () => {
    const all = await fetchAllPages({
      pageSize: 10,
      concurrency: 1,
      idOf: String,
      fetchPage: async (page) => {
        const data = Array.from({ length: page === 1 ? 9 : 5 }, (_, i) => (page - 1) * 10 + i);
        return { data, total: 15, skipped: page === 1 ? [{ index: 9 }] : [] };
      },
    });
    expect(all).toHaveLength(14);
  });

  it('keeps each id once', async () => {
    const all = await fetchAllPages({
      pageSize: 3,
      concurrency: 1,
      idOf: String,
      fetchPage: async (page) => ({ data: page === 1 ? [1, 2, 3] : [3, 4], total: 5 }),
    });
    expect(all).toEqual([1, 2, 3, 4]);
  });
});
