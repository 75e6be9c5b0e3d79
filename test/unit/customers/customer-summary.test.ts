import { expect, it } from 'vitest';
import { summarizeCustomer } from '../../../electron/services/customers/customer-summary.js';
import type { CapacityRow } from '../../../shared/api/readers.js';

const asOf = new Date('2026-06-15T09:00:00.000Z');
const policy = (cidrId: string, policyStatus: string, launchDateTime: string | undefined, endDateTime: string | undefined, more: Partial<CapacityRow> = {}) =>
  ({ cidrId, policyStatus, capacityConfiguration: { launchDateTime, endDateTime, autoRenewalEnabled: false }, ...more }) as CapacityRow;

it('sums a customer’s figures over each window, and orders launches and ends by the instant, not by the text', () => {
  const figures = summarizeCustomer(
    [
      // 12:00 UTC, written with an offset: as text it sorts after sc_c's 13:00 UTC.
      policy('sc_a', 'READY_FOR_PURCHASE', '2026-06-20T17:30:00+05:30', '2026-07-20T00:00:00.000Z'),
      policy('sc_b', 'ACTIVE', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', {
        capacityConfiguration: { launchDateTime: '2026-06-01T00:00:00.000Z', endDateTime: '2026-07-01T00:00:00.000Z', autoRenewalEnabled: true },
        pricing: { ourPrice: 300, savings: 30, creditCardProcessingFee: 2 },
      }),
      policy('sc_c', 'READY_FOR_PURCHASE', '2026-06-20T13:00:00.000Z', undefined),
      policy('sc_d', 'EXPIRED', '2026-01-01T00:00:00.000Z', '2026-01-31T00:00:00.000Z', { pricing: { savings: 60, bankAccountProcessingFee: 1 } }),
      policy('sc_e', 'ACTIVE', 'not a date', '', { pricing: { ourPrice: 7, savings: 5 } }),
    ],
    [],
    asOf,
  );
  expect(figures.totals).toEqual({
    activeCapacity: 2,
    // sc_b's month of its 30-day window, and sc_e's price as it stands (no window known).
    monthlySpend: 307,
    // sc_b: 14.375 of its 30 days delivered; sc_d ran in January; sc_e's savings have no window.
    savingsThisMonth: 14.38,
    savingsYearToDate: 74.38,
    processingFees: 3,
    cancellationFees: 0,
  });
  expect(figures.horizons).toEqual([
    { days: 30, launches: 2, ends: 0, renews: 1 },
    { days: 60, launches: 2, ends: 1, renews: 1 },
    { days: 90, launches: 2, ends: 1, renews: 1 },
  ]);
  expect(figures.milestones.map(({ cidrId, kind }) => `${cidrId} ${kind}`)).toEqual(['sc_a launch', 'sc_c launch', 'sc_b end', 'sc_a end']);
});
