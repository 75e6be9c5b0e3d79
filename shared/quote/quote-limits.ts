/**
 * The most policies one quote holds. In a module of its own (re-exported by quote.ts): the customer page's store
 * reads it as the page's code is evaluated, and importing quote.ts for it built the quote's schemas and the fee
 * schedule's before the overview could mount (issue 25, branch overview12).
 */
export const QUOTE_MAX_POLICIES = 100;
