import { describe, expect, it } from 'vitest';
import type { LinkedAccount } from '../../../shared/api/accounts.js';
import { DEFAULT_SORT, filterAccounts, nextSort, sortAccounts } from '../../../renderer/views/accounts/accounts-table.js';

const account = (accountId: string, accountName: string, provider: string, status: string, linkedAt: string): LinkedAccount => ({
  accountId,
  accountName,
  provider,
  status,
  linkedAt,
});

const ACCOUNTS = [
  account('acct-10', 'prod', 'AWS', 'LINKED', '2025-03-04T09:00:00.000Z'),
  account('acct-9', 'Analytics', 'AWS', 'PENDING', '2025-06-19T14:00:00.000Z'),
  account('b-1', 'emea', 'Azure', 'LINKED', '2024-12-01T00:00:00.000Z'),
];

describe('filterAccounts', () => {
  it('keeps accounts holding every typed word, in any column and case', () => {
    expect(filterAccounts(ACCOUNTS, 'aws linked').map((a) => a.accountId)).toEqual(['acct-10']);
    expect(filterAccounts(ACCOUNTS, '  AZURE ').map((a) => a.accountId)).toEqual(['b-1']);
    expect(filterAccounts(ACCOUNTS, '')).toHaveLength(3);
    expect(filterAccounts(ACCOUNTS, 'gcp')).toEqual([]);
  });
});

describe('sortAccounts', () => {
  it('sorts names without regard to case, and ids with numbers as numbers', () => {
    expect(sortAccounts(ACCOUNTS, DEFAULT_SORT).map((a) => a.accountName)).toEqual(['Analytics', 'emea', 'prod']);
    expect(sortAccounts(ACCOUNTS, { column: 'accountId', direction: 'asc' }).map((a) => a.accountId)).toEqual(['acct-9', 'acct-10', 'b-1']);
  });

  it('sorts linking times as times, newest first when descending', () => {
    expect(sortAccounts(ACCOUNTS, { column: 'linkedAt', direction: 'desc' }).map((a) => a.accountId)).toEqual(['acct-9', 'acct-10', 'b-1']);
  });

  it('breaks ties by name and never changes its input', () => {
    const copy = [...ACCOUNTS];
    expect(sortAccounts(ACCOUNTS, { column: 'provider', direction: 'asc' }).map((a) => a.accountName)).toEqual(['Analytics', 'prod', 'emea']);
    expect(ACCOUNTS).toEqual(copy);
  });
});

describe('nextSort', () => {
  it('flips the sorted column and starts another one ascending (dates newest first)', () => {
    expect(nextSort(DEFAULT_SORT, 'accountName')).toEqual({ column: 'accountName', direction: 'desc' });
    expect(nextSort(DEFAULT_SORT, 'provider')).toEqual({ column: 'provider', direction: 'asc' });
    expect(nextSort(DEFAULT_SORT, 'linkedAt')).toEqual({ column: 'linkedAt', direction: 'desc' });
  });
});
