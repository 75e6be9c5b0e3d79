import { answer, calls, hold, nth, push, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customers } from '../../renderer/stores/customers.svelte.js';
import { followCopyChanges } from '../../renderer/stores/copy-changes.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import type { Customer, CustomerBook } from '../../shared/ipc/customers.js';
import { SERVICE_NOW, windowOf } from './support/fixtures.js';

const customer = (key: string, name: string, over: Partial<Customer> = {}): Customer => ({
  key: `cu_${key.padStart(8, '0')}`,
  name,
  externalIds: [],
  accounts: [],
  contact: '',
  notes: '',
  updatedAt: '2026-11-26T00:00:00.000Z',
  ...over,
});
const bookOf = (list: Customer[]): CustomerBook => ({ customers: list, persistent: true, recovered: null });

const NORTHWIND = customer('1', 'Northwind', { externalIds: ['CUST-1001', 'CUST-1002'], accounts: ['314159265358'] });
const PROTO = customer('2', '__proto__', { accounts: ['constructor'] });
const LONG = customer('3', 'Ä'.repeat(500), { externalIds: ['CUST-9'] });

beforeEach(() => {
  resetFakeApi();
  answer('accounts.list', () => ({ ok: true, value: { items: [{ accountId: '314159265358', accountName: 'morgan-prod' }], skipped: [], origin: SERVICE_NOW } }));
});

describe('the customer book in the window', () => {
  it('names the owner of a policy by its account (id or name, any case) or its DR id, and none for the rest', async () => {
    answer('customers.list', () => ({ ok: true, value: bookOf([PROTO, NORTHWIND, LONG]) }));
    await customers.load();
    expect(customers.customers.map((c) => c.name)).toEqual(['__proto__', LONG.name, 'Northwind']);
    expect(customers.ofAccount('MORGAN-PROD')?.name).toBe('Northwind');
    expect(customers.ofAccount('constructor')?.name).toBe('__proto__');
    expect(customers.ofAccount('toString')).toBeNull();
    expect(customers.ofExternalId('CUST-1002')?.name).toBe('Northwind');
    expect(customers.ofExternalId('cust-1002')).toBeNull();
  });

  it('offers customers by name (those starting with it first), by id or by account, and opens an exact name', async () => {
    answer('customers.list', () => ({ ok: true, value: bookOf([customer('4', 'Contoso North'), NORTHWIND, PROTO]) }));
    await customers.load();
    expect(customers.find('north').map((c) => c.name)).toEqual(['Northwind', 'Contoso North']);
    expect(customers.find('cust-1001').map((c) => c.name)).toEqual(['Northwind']);
    expect(customers.find('__PROTO').map((c) => c.name)).toEqual(['__proto__']);
    expect(customers.named(' northwind ')?.key).toBe(NORTHWIND.key);
    expect(customers.named('north')).toBeNull();
  });

  it('reads the book again after a change, and keeps it as it was when the change is refused', async () => {
    let book = bookOf([NORTHWIND]);
    answer('customers.list', () => ({ ok: true, value: book }));
    await customers.load();
    answer('customers.save', () => ({ ok: false, error: { kind: 'invalid-input', field: 'name', message: 'A customer named “Northwind” is in the book already' } }));
    const refused = await customers.save({ name: 'northwind', externalIds: ['X'] });
    expect(refused).toMatchObject({ ok: false, error: { field: 'name' } });
    expect(calls.filter((c) => c.channel === 'customers.list')).toHaveLength(1);
    const contoso = customer('5', 'Contoso', { externalIds: ['X'] });
    answer('customers.save', () => ({ ok: true, value: contoso }));
    book = bookOf([NORTHWIND, contoso]);
    await customers.save({ name: 'Contoso', externalIds: ['X'] });
    expect(customers.customers.map((c) => c.name)).toEqual(['Contoso', 'Northwind']);
  });

  it('never shows one user’s book to the next, even when the first user’s answer lands late', async () => {
    sessionScope.use('sandbox\u0000alex');
    const reads = hold('customers.list');
    const loading = customers.load();
    sessionScope.use('sandbox\u0000jordan');
    nth(reads, 0).ok(bookOf([NORTHWIND]));
    await loading;
    expect(customers.customers).toEqual([]);
    expect(customers.ofExternalId('CUST-1001')).toBeNull();
  });

  it('follows a sync that renamed an account: the customer who holds it by id owns the policies under the new name', async () => {
    answer('customers.list', () => ({ ok: true, value: bookOf([NORTHWIND]) }));
    await customers.load();
    expect(customers.ofAccount('morgan-prod')?.name).toBe('Northwind');

    answer('accounts.list', () => ({ ok: true, value: { items: [{ accountId: '314159265358', accountName: 'morgan-production' }], skipped: [], origin: SERVICE_NOW } }));
    answer('offline.status', () => ({ ok: true, value: { persistent: true, fetchedAt: { capacities: SERVICE_NOW.fetchedAt }, capacityCount: 1, discarded: 0 } }));
    answer('capacity.list', () => ({ ok: true, value: windowOf([], 0) }));
    // The window follows the copy as App does: a refresh that committed is told as offline.copyChanged.
    const stop = followCopyChanges();
    try {
      await settle();
      push('offline.copyChanged', { version: 1 });
      await vi.waitFor(() => expect(customers.ofAccount('morgan-production')?.name).toBe('Northwind'), { timeout: 4_000 });
      expect(customers.ofAccount('morgan-prod')).toBeNull();
    } finally {
      stop();
    }
  });
});
