import { answer, calls, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../shared/api/readers.js';
import { CapacitySelection, selectionQueryKey, type SelectableList } from '../../renderer/stores/capacity-selection.svelte.js';
import { UNREACHABLE, windowOf } from './support/fixtures.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `sc_${1000 + i}`);

/** A list of `total` rows of which only `loaded` (by index) are in memory, as a virtual list holds them. */
function listOf(total: number, loaded: readonly number[] = Array.from({ length: total }, (_, i) => i)): SelectableList & { rows: Map<number, CapacityRow> } {
  const all = ids(total);
  const rows = new Map(loaded.map((index) => [index, { cidrId: all[index]!, policyName: `Policy ${all[index]!}` } as CapacityRow]));
  return {
    rows,
    total,
    status: null,
    text: 'web',
    sortBy: 'createdDate',
    sortOrder: 'desc',
    row: (index) => rows.get(index),
    loadedEntries: () => [...rows].sort(([a], [b]) => a - b),
  };
}

const selected = (selection: CapacitySelection) => selection.rows.map((row) => row.cidrId).sort();

beforeEach(() => resetFakeApi());

describe('the capacity list selection', () => {
  it('a click, a shift-click range and Space, with each selected row’s record kept for the bulk action', () => {
    const list = listOf(30);
    const selection = new CapacitySelection(list);
    selection.toggle(2);
    selection.toggle(21, true);
    expect(selection.size).toBe(20);
    expect(selected(selection)).toEqual(ids(22).slice(2));
    expect(selection.state).toBe('some');
    // Space on a selected row takes it out; the record list follows.
    selection.toggle(10);
    expect(selection.size).toBe(19);
    expect(selection.rows.map((row) => row.cidrId)).not.toContain('sc_1010');
  });

  it('Shift+arrows extend from the row the cursor left, and narrow back', () => {
    const selection = new CapacitySelection(listOf(10));
    selection.extend(4, 5);
    selection.extend(5, 6);
    expect(selected(selection)).toEqual(['sc_1004', 'sc_1005', 'sc_1006']);
    selection.extend(6, 5);
    expect(selected(selection)).toEqual(['sc_1004', 'sc_1005']);
  });

  it('a Shift+click range takes every row between its ends, reading the ones never loaded (scrolled past) from the list as filtered', async () => {
    const all = ids(300);
    answer('capacity.list', (input) => {
      const { offset, limit } = input as { offset: number; limit: number };
      return { ok: true, value: { ...windowOf(all.slice(offset, offset + limit), all.length), offset } };
    });
    const selection = new CapacitySelection(listOf(300, [0, 1, 2, 250, 251]));
    await selection.toggle(1);
    await selection.toggle(251, true);
    expect(selection.size).toBe(251);
    expect(selected(selection)).toEqual(all.slice(1, 252).sort());
    // Only the rows between were read, with the list's filter and order.
    expect(calls.map((call) => call.input)).toEqual([expect.objectContaining({ offset: 1, limit: 251, text: 'web', sortBy: 'createdDate', sortOrder: 'desc' })]);
    // A row not loaded cannot be clicked, so it toggles nothing.
    await selection.toggle(100);
    expect(selection.size).toBe(251);
  });

  it('a range whose read fails says why and selects nothing more; one overtaken by a new filter lands nowhere', async () => {
    answer('capacity.list', () => ({ ok: false, error: UNREACHABLE }));
    const list = listOf(300, [0, 1, 250]);
    const selection = new CapacitySelection(list);
    await selection.toggle(0);
    await selection.toggle(250, true);
    expect(selected(selection)).toEqual(['sc_1000']);
    expect(selection.error).toEqual(UNREACHABLE);

    const pending = hold('capacity.list');
    await selection.toggle(1);
    const reading = selection.toggle(250, true);
    await settle();
    selection.forQuery(selectionQueryKey({ ...list, text: 'db' }));
    nth(pending, 0).ok({ ...windowOf(ids(300).slice(1, 251), 300), offset: 1 });
    await reading;
    expect(selection.size).toBe(0);
  });

  it('"select every row" reads the whole filtered list, and again clears it', async () => {
    const list = listOf(7, [0, 1]);
    const all = ids(7);
    answer('capacity.list', (input) => {
      const { offset } = input as { offset: number };
      return { ok: true, value: { ...windowOf(all.slice(offset, offset + 3), all.length), offset } };
    });
    const selection = new CapacitySelection(list);
    await selection.toggleAll();
    expect(selected(selection)).toEqual(all);
    expect(selection.state).toBe('all');
    expect(calls[0]?.input).toMatchObject({ text: 'web', sortBy: 'createdDate' });
    await selection.toggleAll();
    expect(selection.size).toBe(0);
  });

  it('says why "select every row" failed and selects nothing', async () => {
    answer('capacity.list', () => ({ ok: false, error: UNREACHABLE }));
    const selection = new CapacitySelection(listOf(7, [0]));
    await selection.toggleAll();
    expect(selection.size).toBe(0);
    expect(selection.error).toEqual(UNREACHABLE);
  });

  it('a new filter clears the selection, also one whose rows are still being read; a new sort does not', async () => {
    const list = listOf(5);
    const selection = new CapacitySelection(list);
    selection.forQuery(selectionQueryKey(list));
    selection.toggle(0);
    selection.forQuery(selectionQueryKey({ ...list, sortOrder: 'asc' }));
    expect(selection.size).toBe(1);
    const pending = hold('capacity.list');
    const reading = selection.toggleAll();
    await settle();
    selection.forQuery(selectionQueryKey({ ...list, text: 'db' }));
    expect(selection.size).toBe(0);
    nth(pending, 0).ok({ ...windowOf(ids(5), 5) });
    await reading;
    // The rows of the old filter never land in the new one's selection.
    expect(selection.size).toBe(0);
  });

  it('treats hostile ids as ordinary ids', () => {
    const list = listOf(3);
    for (const [index, id] of ['__proto__', 'constructor', 'toString'].entries()) list.rows.set(index, { cidrId: id } as CapacityRow);
    const selection = new CapacitySelection(list);
    selection.toggle(0);
    selection.toggle(2, true);
    expect(selected(selection)).toEqual(['__proto__', 'constructor', 'toString']);
  });
});
