import { QUOTE_MAX_POLICIES as QUOTE_MAX } from '../../shared/quote/quote.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import { statusLabel } from '../components/ui/status.js';

export interface QuoteSelection {
  /** The selected policies ready for purchase, in the selection's order: what the quote holds. */
  readonly ready: CapacityRow[];
  /** The others, each with why it is not in the quote. */
  readonly leftOut: Array<{ readonly policy: CapacityRow; readonly why: string }>;
}

/**
 * A quote offers what a customer can still buy: of the selected policies,
 * those ready for purchase (at most a quote's worth); every other one is
 * named with its status, so a mixed selection says what it left out.
 */
export function quoteSelection(rows: readonly CapacityRow[]): QuoteSelection {
  const ready: CapacityRow[] = [];
  const leftOut: Array<{ policy: CapacityRow; why: string }> = [];
  for (const policy of rows) {
    if (policy.policyStatus !== 'READY_FOR_PURCHASE') {
      const status = policy.policyStatus ? statusLabel(policy.policyStatus) : 'Status not known';
      leftOut.push({ policy, why: `${status}: only a policy ready for purchase can be quoted` });
    } else if (ready.length >= QUOTE_MAX) {
      leftOut.push({ policy, why: `A quote holds at most ${QUOTE_MAX} policies` });
    } else {
      ready.push(policy);
    }
  }
  return { ready, leftOut };
}
