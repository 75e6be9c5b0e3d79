import { describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../../shared/api/readers.js';
import { oneCopyEach } from '../../../electron/services/replica/refresh-diff.js';
import { busyFor, countTurns } from '../../support/event-loop-turns.js';

/** A row as far as oneCopyEach reads it; its id slow to read, so the walk outlasts a slice. */
function slowRow(cidrId: string, read: string): CapacityRow {
  return {
    get cidrId() {
      busyFor(0.02);
      return cidrId;
    },
    read,
  } as unknown as CapacityRow;
}

describe('oneCopyEach (the list a refresh writes)', () => {
  it('keeps the first copy of each id (the later page’s, the list being newest first), hostile ids too, and yields to the event loop while it walks', async () => {
    const ids = ['__proto__', 'constructor', '\u202Eevil', 'x'.repeat(500), ...Array.from({ length: 2000 }, (_, i) => `id-${i}`)];
    const list = [...ids.map((id) => slowRow(id, 'newer')), ...ids.slice(0, 4).map((id) => slowRow(id, 'older'))];
    let walking = true;
    const turns = countTurns(() => walking);
    const kept = await oneCopyEach(list);
    walking = false;
    turns.stop();
    expect(kept.map((row) => row.cidrId)).toEqual(ids);
    expect(kept.every((row) => (row as unknown as { read: string }).read === 'newer')).toBe(true);
    expect(turns.turns()).toBeGreaterThan(0);
  });

  it('answers the list itself when no id comes twice', async () => {
    const list = ['a', 'b'].map((id) => ({ cidrId: id }) as unknown as CapacityRow);
    expect(await oneCopyEach(list)).toBe(list);
  });
});
