import { z } from 'zod';
import { FeeSchedule, SANDBOX_FEE_SCHEDULE } from './fee-schedule.js';

/**
 * The terms of the reseller's agreement with a service, kept with its
 * environment: the currency of every amount (the API names none) and the
 * cancellation-fee schedule (the API states a fee only after the cancel).
 */

/** Codes the runtime knows (Node and Chromium both list ISO 4217's current codes). */
const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export const CurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, { error: 'A currency is a three-letter ISO 4217 code, e.g. USD or EUR' })
  .refine((code) => KNOWN_CURRENCIES.has(code), { error: 'That is not an ISO 4217 currency code' });
export type CurrencyCode = z.infer<typeof CurrencyCode>;

export const AgreementTerms = z.object({
  /** null until the person sets it; amounts then say once that it is not set. */
  currency: CurrencyCode.nullable(),
  cancellation: FeeSchedule,
});
export type AgreementTerms = z.infer<typeof AgreementTerms>;

export { UNKNOWN_TERMS } from './unknown-terms.js';

/** The sandbox's own terms, stated in docs/sandbox.md. */
export const SANDBOX_TERMS: AgreementTerms = { currency: 'USD', cancellation: SANDBOX_FEE_SCHEDULE };
