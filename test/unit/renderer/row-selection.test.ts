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
