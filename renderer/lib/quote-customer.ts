import { customers } from '../stores/customers.svelte.js';

/**
 * The customer a quote starts from: the one whose book lists the account of
 * every quoted policy; undefined when any policy's account is unassigned or
 * the policies belong to several customers (the person types or picks one).
 */
export function bookCustomerOf(accounts: readonly (string | null | undefined)[]): string | undefined {
  const names = new Set(accounts.map((account) => customers.ofAccount(account)?.name ?? null));
  const [only] = names;
  return names.size === 1 && only ? only : undefined;
}
