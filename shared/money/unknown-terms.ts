import type { AgreementTerms } from './agreement-terms.js';

/**
 * A new environment's terms: nothing known yet. In a module of its own (re-exported by agreement-terms.ts): the
 * agreement's store starts from it as the page's code is evaluated, and importing agreement-terms.ts for it built the
 * terms' schemas, the fee schedule's and the runtime's list of currencies before the overview could mount (issue 25,
 * branch overview12).
 */
export const UNKNOWN_TERMS: AgreementTerms = { currency: null, cancellation: { kind: 'unknown' } };
