import type { LinkedAccount } from '../shared/api/accounts.js';

export interface SandboxCustomer {
  /** The external customer id (`cid_ext` in paths). */
  readonly cidExt: string;
  readonly name: string;
}

export interface SandboxUser {
  readonly username: string;
  /** Plain text on purpose: these are published demo credentials (docs/contract-choices.md). */
  readonly password: string;
  readonly displayName: string;
  readonly customers: readonly SandboxCustomer[];
  readonly linkedAccounts: readonly LinkedAccount[];
}

/** The users of docs/contract-choices.md ("Sandbox accounts"), and no others. */
export const SANDBOX_USERS: readonly SandboxUser[] = [
  {
    username: 'alex.morgan@example.com',
    password: 'sandbox-demo-1',
    displayName: 'Alex Morgan',
    customers: [
      { cidExt: 'CUST-1001', name: 'Northwind Traders' },
      { cidExt: 'CUST-1002', name: 'Contoso Health' },
    ],
    linkedAccounts: [
      { accountId: '314159265358', accountName: 'morgan-prod', provider: 'AWS', status: 'LINKED', linkedAt: '2025-03-04T09:12:44.000Z' },
      { accountId: '271828182845', accountName: 'morgan-analytics', provider: 'AWS', status: 'LINKED', linkedAt: '2025-06-19T14:02:10.000Z' },
      { accountId: '6f1c2a9e-3b7d-4e15-9a0c-5d8e7f4b2a11', accountName: 'morgan-azure-emea', provider: 'Azure', status: 'LINKED', linkedAt: '2025-09-30T07:45:00.000Z' },
      { accountId: 'morgan-gcp-sandbox-4821', accountName: 'morgan-gcp-lab', provider: 'GCP', status: 'PENDING', linkedAt: '2026-01-12T16:30:05.000Z' },
    ],
  },
  {
    username: 'jordan.lee@example.com',
    password: 'sandbox-demo-2',
    displayName: 'Jordan Lee',
    customers: [{ cidExt: 'CUST-2001', name: 'Fabrikam Logistics' }],
    linkedAccounts: [
      { accountId: '161803398874', accountName: 'lee-main', provider: 'AWS', status: 'LINKED', linkedAt: '2025-02-11T11:20:00.000Z' },
      { accountId: 'lee-gcp-prod-7730', accountName: 'lee-gcp-prod', provider: 'GCP', status: 'LINKED', linkedAt: '2025-08-08T08:08:08.000Z' },
      { accountId: '0b9d6c1e-8f2a-4c3b-b7e6-1a2d3c4e5f60', accountName: 'lee-azure-dr', provider: 'Azure', status: 'DISABLED', linkedAt: '2025-11-27T21:14:33.000Z' },
    ],
  },
];

/** The accounts capacity policies are held in: the provider whose zones the catalog lists. */
export function capacityAccounts(accounts: readonly LinkedAccount[]): readonly LinkedAccount[] {
  return accounts.filter((account) => account.provider === 'AWS' && account.status === 'LINKED');
}

/**
 * Linked AWS accounts added to the first user when the sandbox is asked for
 * them (`--accounts N`): an account manager's book at scale holds thousands
 * of customers' accounts, each with tens of policies, not two accounts
 * holding every policy. Named `book-0001`…, ids of 12 digits.
 */
export function bookAccounts(count: number): LinkedAccount[] {
  return Array.from({ length: count }, (_, i) => ({
    accountId: String(900_000_000_000 + i + 1),
    accountName: bookAccountName(i),
    provider: 'AWS',
    status: 'LINKED',
    linkedAt: '2025-01-01T00:00:00.000Z',
  }));
}

export function bookAccountName(index: number): string {
  return `book-${String(index + 1).padStart(4, '0')}`;
}

/** Each user's linked accounts, the first user's with `extra` book accounts after their own. */
export function linkedAccountsWith(extra: number): ReadonlyMap<string, readonly LinkedAccount[]> {
  return new Map(SANDBOX_USERS.map((user, i) => [user.username, i === 0 && extra > 0 ? [...user.linkedAccounts, ...bookAccounts(extra)] : user.linkedAccounts]));
}

export function findUser(username: string): SandboxUser | undefined {
  const wanted = username.trim().toLowerCase();
  return SANDBOX_USERS.find((user) => user.username === wanted);
}
