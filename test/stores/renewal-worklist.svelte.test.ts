import { answer, calls, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { RenewalWorklistStore } from '../../renderer/stores/renewal-worklist.svelte.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import type { WorklistWindow } from '../../shared/ipc/worklist.js';

const EMPTY: WorklistWindow = {
  rows: [],
  offset: 0,
  total: 0,
  customers: [],
  stateCounts: { 'to-do': 0, contacted: 0, renewing: 0, 'letting-go': 0, handled: 0 },
  origin: { source: 'replica', fetchedAt: '2026-11-23T03:00:00.000Z' },
};

beforeEach(() => {
  resetFakeApi();
  answer('worklist.query', () => ({ ok: true, value: EMPTY }));
});

describe('a customer page’s worklist', () => {
  it('never reads across every customer: nothing until its customer is set, then only theirs, kept across another session', async () => {
    const theirs = new RenewalWorklistStore(true);
    await theirs.load();
    await theirs.refresh();
    expect(calls.filter((call) => call.channel === 'worklist.query')).toEqual([]);

    await theirs.setCustomer('__proto__ Northwind');
    await theirs.setHorizon(90);
    expect(calls.map((call) => call.input)).toEqual([
      expect.objectContaining({ customer: '__proto__ Northwind', horizonDays: 30 }),
      expect.objectContaining({ customer: '__proto__ Northwind', horizonDays: 90 }),
    ]);

    // The Renewals view's store forgets its customer when another user signs in; a page's has no one else's to drop.
    sessionScope.use('sandbox\u0000alex');
    sessionScope.use('sandbox\u0000jordan');
    expect(theirs.customer).toBe('__proto__ Northwind');
  });
});
