import { describe, expect, it } from 'vitest';
import { fetchAllPages, type ListCount, type PageAnswer } from '../../../electron/services/bulk/fetch-all-pages.js';
import { busyFor, countTurns } from '../../support/event-loop-turns.js';
import { heldBytes, parsedPage } from '../../support/heap-held.js';

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
    const counts: ListCount[] = [];
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
    expect(counts).toEqual([{ said: 1_000_000, kept: 30, moved: false, repeated: false, shrank: false }]);
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

  it('of an id on two pages (offset paging shifted mid-fetch) keeps the later page’s copy, whichever page answered first; hostile ids too', async () => {
    const ids = ['__proto__', 'constructor', 'x'.repeat(600)];
    let pageTwoAnswered: () => void = () => undefined;
    const pageTwo = new Promise<void>((resolve) => {
      pageTwoAnswered = resolve;
    });
    const all = await fetchAllPages({
      pageSize: 3,
      concurrency: 2,
      idOf: (item: { id: string; read: string }) => item.id,
      fetchPage: async (page) => {
        const data = ids.map((id) => ({ id: `${id}${page === 1 ? '' : '-shifted'}`, read: `page ${page}` }));
        // Page 3 answers after page 2: the first arrival of the shifted ids is page 2's copy.
        if (page === 3) await pageTwo;
        if (page === 2) setImmediate(pageTwoAnswered);
        return { data: page === 3 ? [...data.slice(0, 2), { id: 'last', read: 'page 3' }] : data, total: 9 };
      },
    });
    expect(all.map((item) => item.id)).toEqual([...ids, `${ids[2]}-shifted`, '__proto__-shifted', 'constructor-shifted', 'last']);
    expect(all.filter((item) => item.id.endsWith('-shifted') && item.id !== `${ids[2]}-shifted`).map((item) => item.read)).toEqual(['page 3', 'page 3']);
  });

  it('puts the list together in slices that yield to the event loop once every page is in', async () => {
    // Each page's first item is the last of the page before (the later page's copy wins), and ids are slow to
    // read once the pages are in: putting the list together takes well over a slice.
    let pagesIn = false;
    const idOf = (item: number) => {
      if (pagesIn) busyFor(0.02);
      return String(item);
    };
    const afterPagesIn = countTurns(() => pagesIn);
    const all = await fetchAllPages({
      pageSize: 100,
      concurrency: 1,
      idOf,
      fetchPage: async (page) => {
        if (page === 20) pagesIn = true;
        return { data: Array.from({ length: 100 }, (_, i) => (page - 1) * 99 + i), total: 2000 };
      },
    });
    afterPagesIn.stop();
    expect(all).toEqual(Array.from({ length: 1981 }, (_, i) => i));
    expect(afterPagesIn.turns()).toBeGreaterThan(0);
  });
  it('ends as cancelled when the cancel comes while the fetched list is put together (it is not answered, so not written)', async () => {
    const controller = new AbortController();
    let pagesIn = false;
    const fetching = fetchAllPages({
      pageSize: 100,
      concurrency: 1,
      signal: controller.signal,
      // Each id walked takes a while once the pages are in, so the walk outlasts a slice and gives way.
      idOf: (item: number) => {
        if (pagesIn) busyFor(0.02);
        return String(item);
      },
      fetchPage: async (page) => {
        if (page === 20) {
          pagesIn = true;
          // The person cancels just after the last page came in: heard at the first turn the slices give.
          setImmediate(() => controller.abort());
        }
        // Pages that overlap by one item, as a shifting offset makes them: the walk for duplicates runs.
        return { data: Array.from({ length: 100 }, (_, i) => (page - 1) * 99 + i), total: 2000 };
      },
    });
    await expect(fetching).rejects.toMatchObject({ error: { kind: 'cancelled' } });
  });

  describe('streamed to a sink', () => {
    it('hands each page on in page order however they arrive, stops at the list’s real end, holds none itself', async () => {
      const handed: number[][] = [];
      const counts: ListCount[] = [];
      const saids: number[] = [];
      const all = await fetchAllPages({
        pageSize: 10,
        concurrency: 4,
        idOf: String,
        onCount: (count) => counts.push(count),
        streamTo: async (said) => {
          saids.push(said);
          return async (items) => void handed.push([...items]);
        },
        // Later pages answer sooner (page 2 last of its batch); the service says 1,000 items and holds 95.
        fetchPage: async (page) => {
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, 12 - page)));
          return { data: Array.from({ length: Math.max(0, Math.min(10, 95 - (page - 1) * 10)) }, (_, i) => (page - 1) * 10 + i), total: 1_000 };
        },
      });
      expect(all).toEqual([]);
      expect(saids).toEqual([1_000]);
      expect(handed.flat()).toEqual(Array.from({ length: 95 }, (_, i) => i));
      expect(handed.map((page) => page[0])).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
      expect(counts).toEqual([{ said: 1_000, kept: 95, moved: false, repeated: false, shrank: false }]);
    });

    it('hands an id that comes twice on with both pages (the sink keeps the later), and counts it once; hostile ids too', async () => {
      const handed: string[] = [];
      const counts: ListCount[] = [];
      await fetchAllPages({
        pageSize: 3,
        concurrency: 2,
        idOf: (id: string) => id,
        onCount: (count) => counts.push(count),
        streamTo: async () => async (items) => void handed.push(...items),
        fetchPage: async (page) => ({ data: page === 1 ? ['__proto__', 'constructor', '\u202Eb'] : ['\u202Eb', 'last'], total: 5 }),
      });
      expect(handed).toEqual(['__proto__', 'constructor', '\u202Eb', '\u202Eb', 'last']);
      expect(counts).toEqual([{ said: 5, kept: 4, moved: true, repeated: true, shrank: false }]);
    });

    it('gives the event loop a turn while it hands on pages that came at once (each sink call resolving at once)', async () => {
      let handing = false;
      const turns = countTurns(() => handing);
      try {
        await fetchAllPages({
          pageSize: 10,
          concurrency: 4,
          idOf: String,
          streamTo: async () => async () => {
            handing = true;
            // A page's rows prepared: 120 pages of 0.5 ms are well past one slice of 8 ms.
            busyFor(0.5);
          },
          fetchPage: async (page) => ({ data: Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i), total: 1_200 }),
        });
      } finally {
        handing = false;
        turns.stop();
      }
      expect(turns.turns()).toBeGreaterThan(0);
    });

    it('waits for a sink that falls behind (no more pages asked for than it has taken, and the requests in flight)', async () => {
      let taken = 0;
      let release: () => void = () => undefined;
      let asked = 0;
      let askedWhileHeld = 0;
      const fetching = fetchAllPages({
        pageSize: 10,
        concurrency: 2,
        idOf: String,
        streamTo: async () => async () => {
          taken += 1;
          if (taken === 3) {
            askedWhileHeld = asked;
            await new Promise<void>((resolve) => (release = resolve));
          }
        },
        fetchPage: async (page) => {
          asked += 1;
          return { data: Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i), total: 200 };
        },
      });
      // Pages answer at once: without the wait every one would be asked for within these turns.
      for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(taken).toBe(3);
      // The sink holds its third page: the two workers each fetched one more and wait on it.
      expect(asked).toBeLessThanOrEqual(askedWhileHeld + 2);
      release();
      await fetching;
      expect(asked).toBe(20);
    });

    it('ends as cancelled when cancelled between pages, and hands no page after the cancel', async () => {
      const controller = new AbortController();
      const handed: number[] = [];
      const fetching = fetchAllPages({
        pageSize: 10,
        concurrency: 2,
        idOf: String,
        signal: controller.signal,
        streamTo: async () => async (items) => {
          handed.push(items[0] as number);
          if (handed.length === 3) controller.abort();
        },
        fetchPage: async (page) => ({ data: Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i), total: 200 }),
      });
      await expect(fetching).rejects.toMatchObject({ error: { kind: 'cancelled' } });
      expect(handed).toEqual([0, 10, 20]);
    });
  });

  /**
   * The review of branch stall8 (review8's desc-shift proof): 1,000 policies read newest first, 4 pages in
   * flight; one is created after page 3 is answered and before page 2 is. Page 2 then starts a place later, so
   * an existing policy is on no page read. The list cannot be read whole this way: it says it moved, so the
   * caller reads it again (replica-sync.ts); oldest first with nothing created, it does not.
   */
  describe('a list that moves while its pages are read', () => {
    async function read(order: 'asc' | 'desc', created: boolean): Promise<{ kept: Set<string>; count: ListCount | null }> {
      const list = Array.from({ length: 1000 }, (_, i) => `p${String(i).padStart(4, '0')}`);
      let page3Answered: () => void = () => undefined;
      const page3 = new Promise<void>((resolve) => (page3Answered = resolve));
      let count: ListCount | null = null;
      const kept = new Set<string>();
      await fetchAllPages<string>({
        pageSize: 100,
        concurrency: 4,
        idOf: (id) => id,
        onCount: (counted) => (count = counted),
        streamTo: async () => async (items) => {
          for (const id of items) kept.add(id);
        },
        fetchPage: async (page, size): Promise<PageAnswer<string>> => {
          if (page === 2) {
            await page3;
            if (created) list.push('p_new');
          }
          const view = order === 'asc' ? list : [...list].reverse();
          const answer = { data: view.slice((page - 1) * size, page * size), total: list.length };
          if (page === 3) setImmediate(page3Answered);
          return answer;
        },
      });
      return { kept, count };
    }

    it('newest first, a policy created between its pages: one existing policy is on no page, and the count says the list moved', async () => {
      const { kept, count } = await read('desc', true);
      expect(kept.has('p0800')).toBe(false);
      expect(count).toMatchObject({ moved: true });
    });

    it('oldest first, a policy created between its pages: every existing policy read, the list moved but neither repeated nor shrank', async () => {
      const { kept, count } = await read('asc', true);
      for (let i = 0; i < 1000; i += 1) expect(kept.has(`p${String(i).padStart(4, '0')}`)).toBe(true);
      expect(count).toMatchObject({ moved: true, repeated: false, shrank: false });
    });

    it('a page whose total is lower than the first\'s: the list shrank', async () => {
      let count: ListCount | null = null;
      await fetchAllPages({
        pageSize: 2,
        concurrency: 1,
        idOf: (id: string) => id,
        onCount: (counted) => (count = counted),
        fetchPage: async (page) => (page === 1 ? { data: ['a', 'b'], total: 5 } : { data: page === 2 ? ['d', 'e'] : [], total: 4 }),
      });
      expect(count).toEqual({ said: 5, kept: 4, moved: true, repeated: false, shrank: true });
    });

    it('read with nothing created, in either order: every policy once, and the list did not move', async () => {
      for (const order of ['asc', 'desc'] as const) {
        const { kept, count } = await read(order, false);
        expect(kept.size).toBe(1000);
        expect(count).toEqual({ said: 1000, kept: 1000, moved: false, repeated: false, shrank: false });
      }
    });
  });

  it('holds a streamed list\'s ids once, as numbers, while its pages are handed on (1M: what the collector walked)', async () => {
    const total = 120_000;
    const pageSize = 1000;
    const last = `sc_${1_000_000 + total}`;
    const before = heldBytes();
    let perId = Number.NaN;
    const counts: ListCount[] = [];
    await fetchAllPages({
      fetchPage: async (page) => ({ data: parsedPage(1_000_001 + (page - 1) * pageSize, Math.min(pageSize, total - (page - 1) * pageSize)), total }),
      pageSize,
      concurrency: 4,
      idOf: (item) => item.cidrId,
      onCount: (count) => counts.push(count),
      streamTo: async () => async (items) => {
        if (items.at(-1)?.cidrId === last) perId = (heldBytes() - before) / total;
      },
    });
    expect(counts).toEqual([{ said: total, kept: total, moved: false, repeated: false, shrank: false }]);
    // Each id's text (32 bytes) in a set of those seen and one of those handed: about 75 bytes an id; as a number in one map, about 30.
    expect(perId, `${perId.toFixed(1)} bytes held an id`).toBeLessThan(50);
  }, 60_000);
});
