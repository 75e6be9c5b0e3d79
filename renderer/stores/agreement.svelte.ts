import { formatMoney } from '../../shared/format/money.js';
import type { AgreementTerms } from '../../shared/money/agreement-terms.js';
import { UNKNOWN_TERMS } from '../../shared/money/unknown-terms.js';
import { session } from './session.svelte.js';

/**
 * The agreement terms of the environment in use (its currency and fee
 * schedule), and the one way a view writes an amount: with that currency.
 */
class AgreementStore {
  readonly terms: AgreementTerms = $derived(session.profiles.find((p) => p.id === session.status?.profileId)?.terms ?? UNKNOWN_TERMS);
  readonly currency: string | null = $derived(this.terms.currency);

  /** 1234.5 -> "USD 1,234.50"; "—" for a missing amount; plain while no currency is set (the shell says so once). */
  amount(value: number | null | undefined): string {
    return formatMoney(value, this.currency);
  }
}

export const agreement = new AgreementStore();
