import { describe, expect, it } from 'vitest';
import { conflictOf, withoutRepeats } from '../../../shared/customers/book-rules.js';
import { mergeProposals, proposeCustomers } from '../../../shared/customers/proposals.js';
import { CustomerDraft, type Customer } from '../../../shared/ipc/customers.js';

const northwind: Customer = {
  key: 'cu_00000001',
  name: 'Northwind',
  externalIds: ['CUST-1001'],
  accounts: ['314159265358'],
  contact: '',
  notes: '',
  updatedAt: '2026-11-26T00:00:00.000Z',
};
const accounts = [
  { accountId: '314159265358', accountName: 'morgan-prod' },
  { accountId: '271828182845', accountName: 'morgan-analytics' },
  { accountId: 'p', accountName: '__proto__' },
];

describe('proposals', () => {
  it('proposes each DR id and account not yet in the book, once', () => {
    const proposals = proposeCustomers([northwind], {
      recentExternalIds: ['CUST-1001', 'CUST-1002', 'CUST-1002'],
      linkedAccounts: accounts,
      policyAccounts: ['MORGAN-ANALYTICS', 'old-account', 'morgan-prod'],
    });
    expect(proposals).toEqual([
      { name: 'CUST-1002', externalIds: ['CUST-1002'], accounts: [], from: 'dr-id' },
      { name: 'morgan-analytics', externalIds: [], accounts: ['morgan-analytics'], from: 'linked-account' },
      { name: '__proto__', externalIds: [], accounts: ['__proto__'], from: 'linked-account' },
      { name: 'old-account', externalIds: [], accounts: ['old-account'], from: 'policy-account' },
    ]);
  });

  it('merges chosen proposals under the name chosen, without repeats', () => {
    const merged = mergeProposals('Contoso', [
      { name: 'CUST-1002', externalIds: ['CUST-1002'], accounts: [], from: 'dr-id' },
      { name: 'a', externalIds: [], accounts: ['morgan-analytics'], from: 'linked-account' },
      { name: 'b', externalIds: [], accounts: ['Morgan-Analytics'], from: 'policy-account' },
    ]);
    expect(merged).toEqual({ name: 'Contoso', externalIds: ['CUST-1002'], accounts: ['morgan-analytics'] });
  });
});

describe('book rules', () => {
  const draft = (over: Partial<CustomerDraft>) => withoutRepeats(CustomerDraft.parse({ name: 'Contoso', externalIds: ['C-9'], ...over }));
  it('refuses a second customer of the same name in another case, an id or an account someone else has', () => {
    expect(conflictOf(draft({ name: 'NORTHWIND' }), [northwind])?.field).toBe('name');
    expect(conflictOf(draft({ externalIds: ['CUST-1001'] }), [northwind])?.message).toContain('belongs to “Northwind”');
    expect(conflictOf(draft({ accounts: [' 314159265358 '] }), [northwind])?.field).toBe('accounts');
    expect(conflictOf(draft({ key: northwind.key, name: 'Northwind' }), [northwind])).toBeNull();
    expect(conflictOf(draft({ name: '__proto__' }), [northwind])).toBeNull();
  });
});
