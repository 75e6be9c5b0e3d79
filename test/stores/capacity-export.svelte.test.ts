import { answer, calls, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { collectCapacityExport } from '../../renderer/stores/capacity-export.js';
import { UNREACHABLE, windowOf } from './support/fixtures.js';

const shown = { status: 'ACTIVE' as const, text: 'p5', sortBy: 'createdDate' as const, sortOrder: 'desc' as const };

beforeEach(() => resetFakeApi());

describe('the capacity export', () => {
  it('collects every row as shown, going on from where a smaller service page ended', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => `sc_${i}`);
    answer('capacity.list', (input) => {
      const { offset } = input as { offset: number };
      // A service page of 3, smaller than the export's window.
      const page = windowOf(ids.slice(offset, offset + 3), ids.length);
      return { ok: true, value: { ...page, offset, rows: page.rows.map((row) => ({ ...row, pricing: { ourPrice: 100 } })) } };
    });
    const result = await collectCapacityExport(shown, 'USD');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.rows.map((row) => row[0])).toEqual(ids);
    expect(result.data.header[0]).toBe('Policy ID');
    // Every priced row names the currency beside its amount.
    const currencyColumn = result.data.header.indexOf('Currency');
    expect(result.data.header[currencyColumn - 1]).toBe('Our price');
    expect(result.data.rows.map((row) => [row[currencyColumn - 1], row[currencyColumn]])).toEqual(ids.map(() => [100, 'USD']));
    expect(calls.map((call) => (call.input as { offset: number }).offset)).toEqual([0, 3, 6]);
    expect(calls[0]?.input).toMatchObject({ status: 'ACTIVE', text: 'p5', sortBy: 'createdDate', sortOrder: 'desc' });
  });

  it('returns the failure instead of a partial file', async () => {
    answer('capacity.list', () => ({ ok: false, error: UNREACHABLE }));
    expect(await collectCapacityExport(shown, 'USD')).toEqual({ ok: false, error: UNREACHABLE });
  });
});
