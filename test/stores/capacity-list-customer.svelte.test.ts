import { answer, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { capacityList } from '../../renderer/stores/capacity-list.svelte.js';
import { windowOf } from './support/fixtures.js';

let runs = 0;
beforeEach(() => {
  resetFakeApi();
  answer('views.setState', () => ({ ok: true, value: null }));
  runs += 1;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
});

const ids = () => capacityList.loadedRows().map((row) => row.cidrId);

describe('the capacity list by customer', () => {
  it('asks for one customer’s policies, then the unassigned ones, dropping rows of the filter before', async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    capacityList.setCustomer('cu_0000000001');
    expect(nth(reads, 1).input).toMatchObject({ customer: 'cu_0000000001', offset: 0 });
    capacityList.setCustomer('unassigned');
    expect(nth(reads, 2).input).toMatchObject({ customer: 'unassigned' });
    nth(reads, 2).ok(windowOf(['sc_stray'], 1));
    await settle();
    nth(reads, 1).ok(windowOf(['sc_northwind'], 1));
    nth(reads, 0).ok(windowOf(['sc_any'], 1));
    await settle();
    expect(ids()).toEqual(['sc_stray']);
    capacityList.setCustomer(null);
    expect(nth(reads, 3).input).not.toHaveProperty('customer');
    nth(reads, 3).ok(windowOf([], 0));
    await settle();
  });

  it('starts another user with every policy (a customer is one user’s)', async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    capacityList.setCustomer('cu_0000000001');
    sessionScope.use('sandbox\u0000jordan');
    expect(capacityList.customer).toBeNull();
    capacityList.open();
    expect(reads.at(-1)?.input).not.toHaveProperty('customer');
    for (const read of reads) read.ok(windowOf([], 0));
    await settle();
  });
});
