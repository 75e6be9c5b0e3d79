import type { CustomerTotals } from '../../shared/ipc/customers.js';

type Fees = Pick<CustomerTotals, 'processingFees' | 'processingFeesByBank' | 'cancellationFees'>;

/**
 * A customer's fees paid, in words: the service states a processing fee by card and one by bank account, never which
 * way the customer paid, so where the two differ the figure is the range between them, and says why (an account
 * manager's day, day13: the card figure alone read 67,153 where the bank account's was 998).
 */
export function feesPaid(fees: Fees, amount: (value: number) => string): { readonly value: string; readonly meaning: string } {
  const low = Math.min(fees.processingFees, fees.processingFeesByBank);
  const high = Math.max(fees.processingFees, fees.processingFeesByBank);
  const cancellation = `${amount(fees.cancellationFees)} cancellation (as the service stated them)`;
  if (low === high) return { value: amount(low + fees.cancellationFees), meaning: `${amount(low)} processing, ${cancellation}.` };
  return {
    value: `${amount(low + fees.cancellationFees)} to ${amount(high + fees.cancellationFees)}`,
    meaning:
      `Processing ${amount(fees.processingFeesByBank)} if paid by bank account, ${amount(fees.processingFees)} by card: ` +
      `the service does not say which way the customer paid. ${cancellation[0]!.toUpperCase()}${cancellation.slice(1)}.`,
  };
}
