import { answer, calls, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { collectCapacityExport } from '../../renderer/stores/capacity-export.js';
import { CAPACITY_COLUMNS, capacityColumn, type CapacityColumn } from '../../renderer/components/capacity/capacity-columns.js';
import { UNREACHABLE, windowOf } from './support/fixtures.js';

const columns = ['cidrId', 'name'].map((id) => capacityColumn(id) as CapacityColumn);
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
    const result = await collectCapacityExport(columns, shown);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.rows.map((row) => row[0])).toEqual(ids);
    expect(result.data.columns).toEqual([
      { label: 'Policy ID', kind: 'text' },
      { label: 'Policy name', kind: 'text' },
    ]);
    expect(calls.map((call) => (call.input as { offset: number }).offset)).toEqual([0, 3, 6]);
    expect(calls[0]?.input).toMatchObject({ status: 'ACTIVE', text: 'p5', sortBy: 'createdDate', sortOrder: 'desc' });
  });

  it('returns the failure instead of a partial file', async () => {
    answer('capacity.list', () => ({ ok: false, error: UNREACHABLE }));
    expect(await collectCapacityExport(columns, shown)).toEqual({ ok: false, error: UNREACHABLE });
  });

  it('exports the columns shown, typed as the screen reads them: local dates, real percentages, amounts with their currency, words', async () => {
    const launch = '2026-11-30T23:30:00Z';
    answer('capacity.list', () => ({
      ok: true,
      value: {
        ...windowOf([], 1),
        rows: [
          {
            cidrId: 'sc_1',
            policyName: 'Web tier',
            cspAccountName: 'morgan-prod',
            policyStatus: 'READY_FOR_PURCHASE',
            policyInstance: { instanceType: 'm5.large', qty: 4 },
            capacityConfiguration: { launchDateTime: launch, autoRenewalEnabled: true, frequency: 'ONE_MONTH' },
            pricing: { ourPrice: 1234.5, cspProviderPrice: 1700, savings: 465.5, savingsPercentage: 0.2738 },
          },
        ],
      },
    }));
    const ids = ['status', 'instances', 'launch', 'renewal', 'savings', 'savingsPct', 'providerPrice'];
    const result = await collectCapacityExport(CAPACITY_COLUMNS.filter((column) => ids.includes(column.id)), shown);
    if (!result.ok) throw new Error('the export failed');
    expect(result.data.columns.map((column) => `${column.label}:${column.kind}`)).toEqual([
      'Status:text',
      'Instance type:text',
      'Quantity:integer',
      'Launch:datetime',
      'Auto-renewal:text',
      'Provider price:amount',
      // After the first amount, though "Our price" is not shown: its amounts say their currency (money18).
      'Currency:text',
      'Savings:amount',
      'Savings %:percent',
    ]);
    const local = new Date(launch);
    const two = (n: number) => String(n).padStart(2, '0');
    const wallClock = `${local.getFullYear()}-${two(local.getMonth() + 1)}-${two(local.getDate())}T${two(local.getHours())}:${two(local.getMinutes())}`;
    // No environment signed in here: no currency set, and said so.
    expect(result.data.rows).toEqual([['Ready for purchase', 'm5.large', 4, wallClock, 'On · Every month', 1700, 'not set', 465.5, 0.2738]]);
  });
});
