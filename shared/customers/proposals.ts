import type { Customer, CustomerProposal } from '../ipc/customers.js';
import { accountKey, CustomerMatcher, type AccountAlias } from './matching.js';

export interface ProposalSources {
  /** External customer ids the person already used in the DR view (the profile remembers them). */
  readonly recentExternalIds: readonly string[];
  /** The linked accounts list. */
  readonly linkedAccounts: readonly (AccountAlias & { readonly status?: string | undefined })[];
  /** Accounts the capacity policies of the copy name (some may no longer be linked). */
  readonly policyAccounts?: readonly string[];
}

/**
 * Customers the person is likely to have, from what they already use, minus
 * what the book already holds: one per DR id and one per account, for the
 * person to confirm, rename and merge (the book never keeps one by itself).
 */
export function proposeCustomers(book: readonly Customer[], sources: ProposalSources): CustomerProposal[] {
  const matcher = new CustomerMatcher(book, sources.linkedAccounts);
  const proposals: CustomerProposal[] = [];
  const seenIds = new Set<string>();
  for (const id of sources.recentExternalIds) {
    const trimmed = id.trim();
    if (!trimmed || seenIds.has(trimmed) || matcher.ofExternalId(trimmed)) continue;
    seenIds.add(trimmed);
    proposals.push({ name: trimmed, externalIds: [trimmed], accounts: [], from: 'dr-id' });
  }
  const seenAccounts = new Set<string>();
  const offerAccount = (name: string, from: CustomerProposal['from']) => {
    const key = accountKey(name);
    if (!key || seenAccounts.has(key) || matcher.ofAccount(name)) return;
    seenAccounts.add(key);
    proposals.push({ name: name.trim(), externalIds: [], accounts: [name.trim()], from });
  };
  for (const account of sources.linkedAccounts) if (account.accountName) offerAccount(account.accountName, 'linked-account');
  for (const name of sources.policyAccounts ?? []) offerAccount(name, 'policy-account');
  return proposals;
}

/** One customer from several proposals, under the name the person chose. */
export function mergeProposals(name: string, chosen: readonly CustomerProposal[]): { name: string; externalIds: string[]; accounts: string[] } {
  const ids = new Set<string>();
  const accounts = new Map<string, string>();
  for (const proposal of chosen) {
    for (const id of proposal.externalIds) ids.add(id);
    for (const account of proposal.accounts) if (!accounts.has(accountKey(account))) accounts.set(accountKey(account), account);
  }
  return { name, externalIds: [...ids], accounts: [...accounts.values()] };
}
