import { answer, calls, hold, nth, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CustomerPageStore, startCustomerPage } from '../../renderer/stores/customer-page.svelte.js';
import type { CustomerPage, CustomerPolicies } from '../../shared/ipc/customers.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import type { SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { FROM_COPY, SERVICE_NOW, UNREACHABLE } from './support/fixtures.js';

const KEY = 'cu_0000000001';
const pageOf = (externalIds: string[], notes = ''): CustomerPage => ({
  customer: { key: KEY, name: 'Northwind', externalIds, accounts: ['morgan-prod'], contact: '', notes, updatedAt: '2026-11-26T00:00:00.000Z' },
  asOf: '2026-11-26T00:00:00.000Z',
  fetchedAt: '2026-11-25T00:00:00.000Z',
  totals: { activeCapacity: 2, launchingLater: 0, monthlySpend: 10, monthlySpendLaunching: 0, savingsThisMonth: 1, savingsYearToDate: 5, processingFeesByCard: 0, processingFeesByBank: 0, cancellationFees: 0, canceledUncounted: 0 },
  horizons: [],
  milestones: [],
  capacity: { rows: [], total: 0 },
  activity: [],
});
const drOf = (ids: string[], origin = SERVICE_NOW): SourcedCyberPage => ({
  data: ids.map((cidrId) => ({ cidrId })),
  page: 1,
  pageSize: 100,
  total: ids.length,
  skipped: [],
  origin,
});

const rowsOf = (count: number): CapacityRow[] => Array.from({ length: count }, (_, i) => ({ cidrId: `sc_${i}` }) as CapacityRow);
const policiesOf = (count: number, total = count): CustomerPolicies => ({ rows: rowsOf(count), total });
const row = (cidrId: string, policyStatus: string) => ({ cidrId, policyStatus }) as CapacityRow;
const pageListing = (rows: CapacityRow[]): CustomerPage => ({ ...pageOf([]), capacity: { rows, total: rows.length } });
const listedOf = (store: CustomerPageStore) => store.rows.map((r) => `${r.cidrId}:${r.policyStatus}`);

beforeEach(() => {
  resetFakeApi();
  answer('customers.policies', () => ({ ok: true, value: policiesOf(0) }));
});

describe('a customer page', () => {
  it('answers from the copy first, then reads the DR list of every id, each with where it came from', async () => {
    answer('customers.page', () => ({ ok: true, value: pageOf(['CUST-1001', 'CUST-1002']) }));
    const dr = hold('cyber.list');
    const store = new CustomerPageStore(KEY);
    const loading = store.load();
    await expect.poll(() => dr.length).toBe(2);
    expect(store.page.value?.totals.activeCapacity).toBe(2);
    expect(dr.map((call) => (call.input as { customerId: string }).customerId)).toEqual(['CUST-1001', 'CUST-1002']);
    nth(dr, 1).ok(drOf(['sc_2'], FROM_COPY));
    nth(dr, 0).fail(UNREACHABLE);
    await loading;
    expect(store.dr.map(({ id, list }) => [id, list.value?.data.map((d) => d.cidrId) ?? null, list.error?.kind ?? null, list.source])).toEqual([
      ['CUST-1001', null, 'offline', null],
      ['CUST-1002', ['sc_2'], null, 'replica'],
    ]);
  });

  it('asks the DR lists only once the page is on screen', async () => {
    answer('customers.page', () => ({ ok: true, value: pageOf(['CUST-1001']) }));
    answer('cyber.list', () => ({ ok: true, value: drOf(['sc_1']) }));
    let shown!: () => void;
    const store = new CustomerPageStore(KEY, () => new Promise<void>((resolve) => (shown = resolve)));
    const loading = store.load();
    await expect.poll(() => store.page.value?.customer.name).toBe('Northwind');
    await expect.poll(() => typeof shown).toBe('function');
    expect(calls.some((call) => call.channel === 'cyber.list')).toBe(false);
    shown();
    await loading;
    expect(store.dr.map(({ list }) => list.value?.data[0]?.cidrId)).toEqual(['sc_1']);
  });

  it('lists the first rows of the answer, and the newest it lists only once the page is on screen', async () => {
    answer('customers.page', () => ({ ok: true, value: { ...pageOf([]), capacity: policiesOf(30, 5000) } }));
    answer('customers.policies', () => ({ ok: true, value: policiesOf(200, 5000) }));
    let shown!: () => void;
    const store = new CustomerPageStore(KEY, () => new Promise<void>((resolve) => (shown = resolve)));
    const loading = store.load();
    await expect.poll(() => typeof shown).toBe('function');
    expect(store.rows).toHaveLength(30);
    expect(calls.some((call) => call.channel === 'customers.policies')).toBe(false);
    shown();
    await loading;
    expect(store.rows).toHaveLength(200);
    expect(calls.filter((call) => call.channel === 'customers.policies').map((call) => call.input)).toEqual([{ key: KEY }]);
  });

  it('takes the read started as its route was entered, once, and reads anew after', async () => {
    const pages = hold('customers.page');
    startCustomerPage(KEY);
    expect(pages).toHaveLength(1);
    const store = new CustomerPageStore(KEY);
    const loading = store.load();
    expect(pages).toHaveLength(1);
    nth(pages, 0).ok(pageOf([], 'started'));
    await loading;
    expect(store.page.value?.customer.notes).toBe('started');
    // A refresh reads anew rather than the started answer again.
    const again = store.load();
    await expect.poll(() => pages.length).toBe(2);
    nth(pages, 1).ok(pageOf([], 'again'));
    await again;
    expect(store.page.value?.customer.notes).toBe('again');
  });

  it('leaves a read started for another customer, or forgotten, to its own page', async () => {
    const pages = hold('customers.page');
    startCustomerPage('cu_0000000002');
    const other = new CustomerPageStore(KEY);
    const loading = other.load();
    expect(pages.map((call) => call.input)).toEqual([{ key: 'cu_0000000002' }, { key: KEY }]);
    nth(pages, 0).ok(pageOf([], 'the other one'));
    nth(pages, 1).ok(pageOf([], 'this one'));
    await loading;
    expect(other.page.value?.customer.notes).toBe('this one');
    startCustomerPage(KEY);
    startCustomerPage(null);
    void new CustomerPageStore(KEY).load();
    expect(pages).toHaveLength(4);
  });

  it('keeps the DR lists shown across a refresh of the same ids, and follows a change of ids', async () => {
    let ids = ['CUST-1001'];
    answer('customers.page', () => ({ ok: true, value: pageOf(ids) }));
    answer('cyber.list', (input) => ({ ok: true, value: drOf([`${(input as { customerId: string }).customerId}-p`]) }));
    const store = new CustomerPageStore(KEY);
    await store.load();
    const first = store.dr[0]?.list;
    await store.load();
    expect(store.dr[0]?.list).toBe(first);
    ids = ['CUST-2'];
    await store.load();
    expect(store.dr.map(({ id, list }) => [id, list.value?.data[0]?.cidrId])).toEqual([['CUST-2', 'CUST-2-p']]);
  });

  it('reads no DR list when the customer was removed meanwhile, and says so', async () => {
    answer('customers.page', () => ({ ok: false, error: { kind: 'not-found', message: 'That customer is no longer in the book.' } }));
    const store = new CustomerPageStore(KEY);
    await store.load();
    expect(store.page.error?.kind).toBe('not-found');
    expect(calls.some((call) => call.channel === 'cyber.list')).toBe(false);
  });

  // review8: the rows preferred the last policies read over a newer page answer, beside its totals and in its quote.
  describe('after the copy changed (a reload)', () => {
    const before = [row('sc_1', 'READY_FOR_PURCHASE'), row('sc_2', 'ACTIVE')];
    const after = [row('sc_1', 'ACTIVE'), row('sc_2', 'ACTIVE')];

    it('lists the new answer’s rows, not the last policies read, and says when their newest could not be read', async () => {
      answer('customers.page', () => ({ ok: true, value: pageListing(before) }));
      answer('customers.policies', () => ({ ok: true, value: { rows: before, total: 2 } }));
      const store = new CustomerPageStore(KEY);
      await store.load();
      expect(listedOf(store)).toEqual(['sc_1:READY_FOR_PURCHASE', 'sc_2:ACTIVE']);
      expect(store.readyIds).toEqual(['sc_1']);

      // sc_1 bought: the copy changed, the page reads again.
      answer('customers.page', () => ({ ok: true, value: pageListing(after) }));
      const policies = hold('customers.policies');
      const reloading = store.load();
      await expect.poll(() => store.page.value?.capacity.rows[0]?.policyStatus).toBe('ACTIVE');
      expect(listedOf(store)).toEqual(['sc_1:ACTIVE', 'sc_2:ACTIVE']);
      expect(store.readyIds).toEqual([]);
      await expect.poll(() => policies.length).toBe(1);
      expect(store.policiesError).toBeNull();
      nth(policies, 0).fail(UNREACHABLE);
      await reloading;
      expect(listedOf(store)).toEqual(['sc_1:ACTIVE', 'sc_2:ACTIVE']);
      expect(store.readyIds).toEqual([]);
      expect(store.policiesError?.kind).toBe('offline');

      // Its retry reads them for the page shown.
      const retried = store.retryPolicies();
      expect(store.policiesError).toBeNull();
      nth(policies, 1).ok({ rows: [...after, row('sc_3', 'READY_FOR_PURCHASE')], total: 3 });
      await retried;
      expect(listedOf(store)).toEqual(['sc_1:ACTIVE', 'sc_2:ACTIVE', 'sc_3:READY_FOR_PURCHASE']);
      expect(store.readyIds).toEqual(['sc_3']);
      expect(store.policiesError).toBeNull();
    });

    it('drops the older load’s policies answering after the newer page answer', async () => {
      answer('customers.page', () => ({ ok: true, value: pageListing(before) }));
      const policies = hold('customers.policies');
      const paints: Array<() => void> = [];
      const store = new CustomerPageStore(KEY, () => new Promise<void>((resolve) => paints.push(resolve)));
      const first = store.load();
      await expect.poll(() => paints.length).toBe(1);
      nth(paints, 0)();
      await expect.poll(() => policies.length).toBe(1);
      // The copy changed while the first load's newest were in flight; the page answers anew before them.
      answer('customers.page', () => ({ ok: true, value: pageListing(after) }));
      const reloaded = store.load();
      await expect.poll(() => paints.length).toBe(2);
      expect(store.page.value?.capacity.rows[0]?.policyStatus).toBe('ACTIVE');
      nth(policies, 0).ok({ rows: before, total: 2 });
      await first;
      expect(store.policies.value?.rows[0]?.policyStatus).toBe('READY_FOR_PURCHASE');
      expect(listedOf(store)).toEqual(['sc_1:ACTIVE', 'sc_2:ACTIVE']);
      expect(store.readyIds).toEqual([]);
      expect(store.policiesError).toBeNull();
      nth(paints, 1)();
      await expect.poll(() => policies.length).toBe(2);
      nth(policies, 1).ok({ rows: [...after, row('sc_3', 'ACTIVE')], total: 3 });
      await reloaded;
      expect(listedOf(store)).toEqual(['sc_1:ACTIVE', 'sc_2:ACTIVE', 'sc_3:ACTIVE']);
    });
  });
});

