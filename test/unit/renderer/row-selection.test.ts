import { describe, expect, it } from 'vitest';
import { RowSelection } from '../../../renderer/lib/row-selection.js';

const ORDER = ['a', 'b', 'c', 'd', 'e'];

describe('RowSelection', () => {
  it('toggles one row, and a shift-click sets the range from the anchor to the row clicked', () => {
    const selection = new RowSelection();
    selection.toggle('b', ORDER);
    selection.toggle('d', ORDER, true);
    expect([...selection.ids].sort()).toEqual(['b', 'c', 'd']);
    // Shift-click on a selected row clears the range from the anchor (d) back to it.
    selection.toggle('c', ORDER, true);
    expect([...selection.ids].sort()).toEqual(['b']);
  });

  it('ranges upwards too, and without an anchor a shift-click toggles one row', () => {
    const selection = new RowSelection();
    selection.toggle('e', ORDER, true);
    expect([...selection.ids]).toEqual(['e']);
    selection.toggle('b', ORDER, true);
    expect([...selection.ids].sort()).toEqual(['b', 'c', 'd', 'e']);
  });

  it('selects all, then clears all; keeps only rows still listed', () => {
    const selection = new RowSelection();
    selection.toggle('a', ORDER);
    selection.toggleAll(ORDER);
    expect(selection.size).toBe(5);
    selection.keepOnly(['b', 'z']);
    expect([...selection.ids]).toEqual(['b']);
    selection.toggleAll(['b']);
    expect(selection.size).toBe(0);
  });

  it('treats hostile ids as ordinary ids', () => {
    const selection = new RowSelection();
    const order = ['__proto__', 'constructor', 'toString'];
    selection.toggle('__proto__', order);
    selection.toggle('toString', order, true);
    expect([...selection.ids].sort()).toEqual(['__proto__', 'constructor', 'toString']);
  });
});

describe('RowSelection.extend (Shift+arrows)', () => {
  it('anchors where the cursor was, widens the range, and narrows it when the cursor comes back', () => {
    const selection = new RowSelection();
    selection.extend('b', 'c', ORDER);
    expect([...selection.ids].sort()).toEqual(['b', 'c']);
    selection.extend('c', 'd', ORDER);
    expect([...selection.ids].sort()).toEqual(['b', 'c', 'd']);
    selection.extend('d', 'c', ORDER);
    expect([...selection.ids].sort()).toEqual(['b', 'c']);
    // Past the anchor the other way: the range turns round it.
    selection.extend('c', 'b', ORDER);
    selection.extend('b', 'a', ORDER);
    expect([...selection.ids].sort()).toEqual(['a', 'b']);
  });

  it('never takes back rows selected before the run, and a toggle starts a new run', () => {
    const selection = new RowSelection();
    selection.toggle('d', ORDER);
    selection.toggle('b', ORDER);
    selection.extend('b', 'c', ORDER);
    selection.extend('c', 'd', ORDER);
    selection.extend('d', 'e', ORDER);
    selection.extend('e', 'a', ORDER);
    // Back past the anchor: c and e, added by the run, are taken back; d was selected before it.
    expect([...selection.ids].sort()).toEqual(['a', 'b', 'd']);
    selection.toggle('e', ORDER);
    selection.extend('e', 'd', ORDER);
    expect([...selection.ids].sort()).toEqual(['a', 'b', 'd', 'e']);
  });
});
