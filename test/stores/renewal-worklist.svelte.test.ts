import { answer, calls, hold, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RenewalWorklistStore } from '../../renderer/stores/renewal-worklist.svelte.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import type { WorklistRow, WorklistState, WorklistWindow } from '../../shared/ipc/worklist.js';

const EMPTY: WorklistWindow = {
  rows: [],
  offset: 0,
  total: 0,
  customers: [],
  stateCounts: { 'to-do': 0, contacted: 0, renewing: 0, 'letting-go': 0, handled: 0 },
  origin: { source: 'replica', fetchedAt: '2026-11-23T03:00:00.000Z' },
};

beforeEach(() => {
  resetFakeApi();
  answer('worklist.query', () => ({ ok: true, value: EMPTY }));
});

describe('a customer page’s worklist', () => {
  it('never reads across every customer: nothing until its customer is set, then only theirs, kept across another session', async () => {
    const theirs = new RenewalWorklistStore(true);
    await theirs.load();
    await theirs.refresh();
    expect(calls.filter((call) => call.channel === 'worklist.query')).toEqual([]);

    await theirs.setCustomer('__proto__ Northwind');
    await theirs.setHorizon(90);
    expect(calls.map((call) => call.input)).toEqual([
      expect.objectContaining({ customer: '__proto__ Northwind', horizonDays: 30 }),
      expect.objectContaining({ customer: '__proto__ Northwind', horizonDays: 90 }),
    ]);

    // The Renewals view's store forgets its customer when another user signs in; a page's has no one else's to drop.
    sessionScope.use('sandbox\u0000alex');
    sessionScope.use('sandbox\u0000jordan');
    expect(theirs.customer).toBe('__proto__ Northwind');
  });
});

/** A worklist of `total` rows, answered a window at a time as the main process answers it. */
function answerWorklistOf(total: number): string[] {
  const ids = Array.from({ length: total }, (_, i) => (i === 7 ? '__proto__' : `sc_${100000 + i}`));
  answer('worklist.query', (input) => {
    const { offset, limit } = input as { offset: number; limit: number };
    const rows = ids.slice(offset, offset + limit).map((cidrId): WorklistRow => ({ policy: { cidrId, policyName: `Policy ${cidrId}` }, customer: null, milestone: 'end', entry: null }));
    return { ok: true, value: { ...EMPTY, rows, offset, total } };
  });
  return ids;
}

const queried = () => calls.filter((call) => call.channel === 'worklist.query').map((call) => call.input as { offset: number; limit: number });
const settle = () => new Promise((resolve) => setTimeout(resolve, 120));

describe('the worklist’s rows, read a page at a time as they come into view', () => {
  it('reads the first page, then the pages of the rows scrolled to; a Shift+click range takes every row between, also the ones never read', async () => {
    const ids = answerWorklistOf(450);
    const worklist = new RenewalWorklistStore();
    await worklist.load();
    expect(worklist.total).toBe(450);
    expect(worklist.row(0)?.policy.cidrId).toBe(ids[0]);
    expect(worklist.row(7)?.policy.cidrId).toBe('__proto__');
    expect(worklist.row(150)).toBeUndefined();
    expect(queried()).toEqual([expect.objectContaining({ offset: 0, limit: 100 })]);

    // Scrolled far down: only the page in view is read, once the scroll rests.
    worklist.show({ start: 410, end: 425 });
    await settle();
    expect(worklist.row(420)?.policy.cidrId).toBe(ids[420]);
    expect(worklist.row(250)).toBeUndefined();
    expect(queried().slice(1)).toEqual([expect.objectContaining({ offset: 400, limit: 100 })]);

    await worklist.selection.toggle(3);
    await worklist.selection.toggle(420, true);
    expect(worklist.selectedRows.map((row) => row.policy.cidrId).sort()).toEqual(ids.slice(3, 421).sort());
    expect(worklist.selection.state).toBe('some');
    // The rows between were read with the list's filters, in the channel's windows.
    expect(queried().slice(2)).toEqual([expect.objectContaining({ offset: 3, limit: 418, horizonDays: 30 })]);

    // Another filter is another list: the selection starts from nothing.
    await worklist.setState('contacted');
    expect(worklist.selection.size).toBe(0);
    worklist.reset();
  });

  it('Ctrl+A takes every row of the list as filtered, read in windows, and again clears it', async () => {
    const ids = answerWorklistOf(1_203);
    const worklist = new RenewalWorklistStore();
    await worklist.load();
    await worklist.selection.toggleAll();
    expect(worklist.selection.size).toBe(1_203);
    expect(worklist.selection.state).toBe('all');
    expect(new Set(worklist.selectedRows.map((row) => row.policy.cidrId))).toEqual(new Set(ids));
    expect(queried().slice(1).map((input) => [input.offset, input.limit])).toEqual([
      [0, 500],
      [500, 500],
      [1000, 500],
    ]);
    await worklist.selection.toggleAll();
    expect(worklist.selection.size).toBe(0);
    worklist.reset();
  });
});

describe('a row whose entry takes it out of the list as shown', () => {
  it('leaves the selection, so a bulk action never reaches it; a row that stays is kept', async () => {
    const ids = answerWorklistOf(20);
    answer('worklist.setEntry', (input) => {
      const { state, snoozedUntil } = input as { state?: WorklistState; snoozedUntil?: string | null };
      return { ok: true, value: { state: state ?? 'to-do', note: '', snoozedUntil: snoozedUntil ?? null, updatedAt: '2026-11-26T10:00:00.000Z' } };
    });
    const worklist = new RenewalWorklistStore();
    await worklist.setState('to-do');
    await settle();
    await worklist.selection.toggle(0);
    await worklist.selection.toggle(1);
    await worklist.selection.toggle(7);
    expect(worklist.selection.size).toBe(3);

    // Chosen "renewing" under the "to do" filter: the row leaves the list, and the selection.
    expect(await worklist.saveEntry({ cidrId: ids[0]!, state: 'renewing' })).toBe(true);
    // Snoozed while snoozed rows are left out: it leaves too (__proto__ as an id included).
    expect(await worklist.saveEntry({ cidrId: ids[7]!, snoozedUntil: '2026-12-24' })).toBe(true);
    // Still "to do": it stays selected.
    expect(await worklist.saveEntry({ cidrId: ids[1]!, state: 'to-do' })).toBe(true);
    expect(worklist.selection.size).toBe(1);
    expect(worklist.selection.has(ids[1]!)).toBe(true);
    expect(worklist.selection.rows.map((row) => row.policy.cidrId)).toEqual([ids[1]]);
  });
});

describe('the first rows before the whole answer (the count still being made)', () => {
  /** Rows of a worklist of `total`, `offset` on, as the main process answers them. */
  const rowsOf = (offset: number, limit: number, total: number): WorklistRow[] =>
    Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i): WorklistRow => {
      const cidrId = `sc_${100000 + offset + i}`;
      return { policy: { cidrId, policyName: `Policy ${cidrId}` }, customer: null, milestone: 'end', entry: null };
    });
  const WHOLE = 450;
  /** What was counted of the window when the first rows were answered. */
  const SO_FAR = 120;

  it('shows the first rows at once with the count said to be partial, selects nothing meanwhile, then takes the whole answer', async () => {
    const queries = hold('worklist.query');
    const worklist = new RenewalWorklistStore();
    const loading = worklist.load();
    await vi.waitFor(() => expect(queries).toHaveLength(1));
    expect(queries[0]?.input).toMatchObject({ offset: 0, limit: 100, mayStillCount: true });
    queries[0]?.ok({ ...EMPTY, rows: rowsOf(0, 100, WHOLE), total: SO_FAR, stillCounting: true });

    // The whole answer is asked at once, and the first rows show meanwhile, the count marked as not final.
    await vi.waitFor(() => expect(queries).toHaveLength(2));
    expect(queries[1]?.input).toMatchObject({ offset: 0, limit: 100, mayStillCount: false });
    expect(worklist.stillCounting).toBe(true);
    expect(worklist.row(0)?.policy.cidrId).toBe('sc_100000');
    expect(worklist.total).toBe(SO_FAR);
    // Nothing is taken before the final answer: no row, no range, not "every row" (its count is not known yet).
    await worklist.selection.toggle(0);
    await worklist.selection.toggleAll();
    worklist.selection.extend(0, 1);
    expect(worklist.selection.size).toBe(0);
    // The rows scrolled to are not read against a count that is not final.
    worklist.show({ start: 110, end: 120 });
    await settle();
    expect(queries).toHaveLength(2);

    queries[1]?.ok({ ...EMPTY, rows: rowsOf(0, 100, WHOLE), total: WHOLE });
    await loading;
    expect(worklist.stillCounting).toBe(false);
    expect(worklist.total).toBe(WHOLE);
    // The rows in view are read now, as final answers.
    await vi.waitFor(() => expect(queries).toHaveLength(3));
    expect(queries[2]?.input).toMatchObject({ offset: 100, limit: 100 });
    expect(queries[2]?.input).not.toHaveProperty('mayStillCount', true);
    queries[2]?.ok({ ...EMPTY, rows: rowsOf(100, 100, WHOLE), offset: 100, total: WHOLE });
    await vi.waitFor(() => expect(worklist.row(115)?.policy.cidrId).toBe('sc_100115'));

    await worklist.selection.toggle(0);
    expect(worklist.selectedRows.map((row) => row.policy.cidrId)).toEqual(['sc_100000']);
    expect(worklist.selection.state).toBe('some');
  });

  it('asks once when the first answer is already whole', async () => {
    answer('worklist.query', (input) => {
      const { offset, limit } = input as { offset: number; limit: number };
      return { ok: true, value: { ...EMPTY, rows: rowsOf(offset, limit, WHOLE), offset, total: WHOLE } };
    });
    const worklist = new RenewalWorklistStore();
    await worklist.load();
    expect(queried()).toEqual([expect.objectContaining({ offset: 0, mayStillCount: true })]);
    expect(worklist.stillCounting).toBe(false);
    expect(worklist.total).toBe(WHOLE);
  });

  it('never lets a still-counting answer overtake a newer filter: the whole answer asked is the new filter’s', async () => {
    const queries = hold('worklist.query');
    const worklist = new RenewalWorklistStore();
    void worklist.load();
    await vi.waitFor(() => expect(queries).toHaveLength(1));
    const horizon = worklist.setHorizon(90);
    await vi.waitFor(() => expect(queries).toHaveLength(2));
    // The 30 days' first rows come after the 90 days' were asked: dropped, and no whole answer is asked for them.
    queries[0]?.ok({ ...EMPTY, rows: rowsOf(0, 100, WHOLE), total: SO_FAR, stillCounting: true });
    queries[1]?.ok({ ...EMPTY, rows: rowsOf(0, 100, WHOLE), total: WHOLE });
    await horizon;
    await settle();
    expect(queries.map((query) => query.input)).toEqual([
      expect.objectContaining({ horizonDays: 30, mayStillCount: true }),
      expect.objectContaining({ horizonDays: 90, mayStillCount: true }),
    ]);
    expect(worklist.stillCounting).toBe(false);
    expect(worklist.total).toBe(WHOLE);
  });
});
