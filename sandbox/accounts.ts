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
export function capacityAccounts(user: SandboxUser): readonly LinkedAccount[] {
  return user.linkedAccounts.filter((account) => account.provider === 'AWS' && account.status === 'LINKED');
}

export function findUser(username: string): SandboxUser | undefined {
  const wanted = username.trim().toLowerCase();
  return SANDBOX_USERS.find((user) => user.username === wanted);
}
