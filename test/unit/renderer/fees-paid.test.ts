import { expect, it } from 'vitest';
import { feesPaid } from '../../../renderer/lib/fees-paid.js';
import { summarizeCustomer } from '../../../electron/services/customers/customer-summary.js';
import type { CapacityRow } from '../../../shared/api/readers.js';

const amount = (value: number) => `USD ${value.toFixed(2)}`;
const bought = (cidrId: string, pricing: CapacityRow['pricing']) =>
  ({ cidrId, policyStatus: 'ACTIVE', capacityConfiguration: { launchDateTime: '2026-01-01T00:00:00Z', endDateTime: '2027-01-01T00:00:00Z' }, pricing }) as CapacityRow;

it('a customer’s fees paid are the range between paying by bank account and by card, and say why; one figure when they agree', () => {
  // The service states both fees on each policy, never which way the customer paid (day13: 998 by bank, 67,153 by card).
  const { totals } = summarizeCustomer(
    [bought('sc_1', { ourPrice: 1000, savings: 100, creditCardProcessingFee: 30, bankAccountProcessingFee: 5 }), bought('sc_2', { ourPrice: 500, savings: 50, creditCardProcessingFee: 15 })],
    [],
    new Date('2026-06-01T00:00:00Z'),
  );
  expect([totals.processingFees, totals.processingFeesByBank]).toEqual([45, 20]);
  const both = feesPaid({ ...totals, cancellationFees: 10 }, amount);
  expect(both.value).toBe('USD 30.00 to USD 55.00');
  expect(both.meaning).toBe('Processing USD 20.00 if paid by bank account, USD 45.00 by card: the service does not say which way the customer paid. USD 10.00 cancellation (as the service stated them).');
  expect(feesPaid({ processingFees: 7, processingFeesByBank: 7, cancellationFees: 0 }, amount)).toEqual({
    value: 'USD 7.00',
    meaning: 'USD 7.00 processing, USD 0.00 cancellation (as the service stated them).',
  });
});
