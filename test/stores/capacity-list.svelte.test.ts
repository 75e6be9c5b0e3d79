import { answer, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { LIST_PAGE_SIZE, capacityList, capacitySelection } from '../../renderer/stores/capacity-list.svelte.js';
import { FROM_COPY, SERVICE_NOW, UNREACHABLE, windowOf } from './support/fixtures.js';

let runs = 0;
beforeEach(() => {
  resetFakeApi();
  answer('views.setState', () => ({ ok: true, value: null }));
  runs += 1;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
});

const ids = () => capacityList.loadedRows().map((row) => row.cidrId);
const rowIds = (from: number, count: number) => Array.from({ length: count }, (_, i) => `sc_${from + i}`);

describe('the capacity list', () => {
  it('reads on first open and keeps the rows, with their source, for the next open', async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    expect(nth(reads, 0).input).toMatchObject({ offset: 0, limit: LIST_PAGE_SIZE });
    nth(reads, 0).ok(windowOf(['sc_1', 'sc_2'], 2, FROM_COPY));
    await settle();
    expect(ids()).toEqual(['sc_1', 'sc_2']);
    expect(capacityList.origin?.source).toBe('replica');
    capacityList.open();
    expect(reads).toHaveLength(1);
  });

  it('drops a page of the previous filter that arrives after the new filter answered', async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    capacityList.setStatus('ACTIVE');
    nth(reads, 1).ok(windowOf(['sc_active'], 1));
    await settle();
    nth(reads, 0).ok(windowOf(['sc_any'], 1));
    await settle();
    expect(ids()).toEqual(['sc_active']);
    expect(capacityList.total).toBe(1);
    capacityList.setStatus(null);
    nth(reads, 2).ok(windowOf([], 0));
    await settle();
  });

  it('applies every page of one query fetched side by side, in whatever order they answer', async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    nth(reads, 0).ok(windowOf(['sc_1'], LIST_PAGE_SIZE * 3));
    await settle();
    capacityList.show({ start: 0, end: LIST_PAGE_SIZE * 3 });
    // The pages are asked for after the list's debounce: wait for them, however loaded the machine.
    await vi.waitFor(() => expect(reads).toHaveLength(3), { timeout: 5_000 });
    nth(reads, 2).ok(windowOf(['sc_3'], LIST_PAGE_SIZE * 3, SERVICE_NOW));
    nth(reads, 1).ok(windowOf(['sc_2'], LIST_PAGE_SIZE * 3, SERVICE_NOW));
    await settle();
    expect(ids().sort()).toEqual(['sc_1', 'sc_2', 'sc_3']);
  });

  it("empties when another user signs in, drops the page under way, and their first open reads again", async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    nth(reads, 0).ok(windowOf(['sc_alex'], 1));
    await settle();
    capacityList.retry();
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    expect(ids()).toEqual([]);
    expect(capacityList.total).toBeNull();
    nth(reads, 1).ok(windowOf(['sc_alex'], 1));
    await settle();
    expect(ids()).toEqual([]);
    capacityList.open();
    expect(reads).toHaveLength(3);
    nth(reads, 2).ok(windowOf(['sc_jordan'], 1));
    await settle();
    expect(ids()).toEqual(['sc_jordan']);
  });

  it('says why a page failed, and reads again on the next open', async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    nth(reads, 0).fail(UNREACHABLE);
    await settle();
    expect(capacityList.error).toEqual(UNREACHABLE);
    capacityList.open();
    expect(reads).toHaveLength(2);
    nth(reads, 1).ok(windowOf(['sc_1'], 1));
    await settle();
    expect(capacityList.error).toBeNull();
  });
});

describe('the capacity list searched as the person types', () => {

  it('asks a keystroke for the rows in view and as many again, and the rest of the page once scrolled to', async () => {
    // The list waits for a scroll to rest before it asks (a timer): run it at once, so "nothing asked" is a fact, not a wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const reads = hold('capacity.list');
    capacityList.open();
    nth(reads, 0).ok(windowOf(rowIds(0, LIST_PAGE_SIZE), 1_000, FROM_COPY));
    await settle();
    capacityList.show({ start: 0, end: 17 });
    capacityList.setText('m5');
    // Not a whole page: each row of an answer is read, checked, sent and parsed whole.
    expect(nth(reads, 1).input).toMatchObject({ text: 'm5', offset: 0, limit: 34 });
    nth(reads, 1).ok(windowOf(rowIds(0, 34), 500, FROM_COPY));
    await settle();
    expect(ids()).toHaveLength(34);
    // The table reports the same rows in view after the answer: nothing more is asked.
    capacityList.show({ start: 0, end: 17 });
    vi.runAllTimers();
    expect(reads).toHaveLength(2);
    // Scrolled past the rows the keystroke brought: the whole page is asked for.
    capacityList.show({ start: 30, end: 47 });
    vi.runAllTimers();
    expect(reads).toHaveLength(3);
    expect(nth(reads, 2).input).toMatchObject({ text: 'm5', offset: 0, limit: LIST_PAGE_SIZE });
    nth(reads, 2).ok(windowOf(rowIds(0, LIST_PAGE_SIZE), 500, FROM_COPY));
    await settle();
    expect(capacityList.row(40)?.cidrId).toBe('sc_40');
  });

  it('asks for the latest text once the answer on its way is in, not for each key typed meanwhile', async () => {
    const reads = hold('capacity.list');
    capacityList.setText(`m${runs}`);
    capacityList.setText(`m5${runs}`);
    capacityList.setText(`m5.${runs}`);
    expect(reads.map((read) => read.input)).toEqual([expect.objectContaining({ text: `m${runs}` })]);
    nth(reads, 0).ok(windowOf(['sc_m'], 1, FROM_COPY));
    await settle();
    // The first key's answer is not shown (its text is gone), and the table stays busy until the latest one's is.
    expect(reads.map((read) => (read.input as { text: string }).text)).toEqual([`m${runs}`, `m5.${runs}`]);
    expect(capacityList.fetching).toBe(1);
    expect(ids()).not.toContain('sc_m');
    nth(reads, 1).ok(windowOf(['sc_m5'], 1, FROM_COPY));
    await settle();
    expect(ids()).toEqual(['sc_m5']);
    expect(capacityList.fetching).toBe(0);
  });

  it('keeps the object shown for a record a new answer brings again, and takes a changed record anew', async () => {
    const reads = hold('capacity.list');
    capacityList.setText(`a${runs}`);
    nth(reads, 0).ok(windowOf(['sc_1', 'sc_2', 'sc_3'], 3, FROM_COPY));
    await settle();
    const [one, two] = [capacityList.row(0), capacityList.row(1)];
    capacityList.setText(`ab${runs}`);
    // sc_2 and sc_1 again (equal records, new objects from the wire), in another order, and one not shown before.
    nth(reads, 1).ok(windowOf(['sc_2', 'sc_1', 'sc_9'], 3, FROM_COPY));
    await settle();
    expect(ids()).toEqual(['sc_2', 'sc_1', 'sc_9']);
    expect(capacityList.row(0)).toBe(two);
    expect(capacityList.row(1)).toBe(one);
    capacityList.setText(`abc${runs}`);
    nth(reads, 2).ok({ ...windowOf([], 1, FROM_COPY), rows: [{ cidrId: 'sc_1', policyName: 'Renamed' }] });
    await settle();
    expect(capacityList.row(0)).not.toBe(one);
    expect(capacityList.row(0)?.policyName).toBe('Renamed');
  });
});

describe('the capacity list’s selection (review12)', () => {
  it('follows a selected row the list answers again changed: the bulk bar’s review, quote and export read the record the list shows', async () => {
    const reads = hold('capacity.list');
    capacityList.setText(`sel${runs}`);
    nth(reads, 0).ok({ ...windowOf([], 2, FROM_COPY), rows: [{ cidrId: 'sc_1', policyName: 'One', policyStatus: 'ACTIVE' }, { cidrId: 'sc_2', policyName: 'Two', policyStatus: 'ACTIVE' }] });
    await settle();
    await capacitySelection.toggle(0);
    onTestFinished(() => capacitySelection.clear());
    expect(capacitySelection.rows.map((row) => row.policyStatus)).toEqual(['ACTIVE']);
    // The copy was refreshed (or the policy cancelled elsewhere): the list asks again and shows it cancelled.
    capacityList.refresh();
    await vi.waitFor(() => expect(reads).toHaveLength(2), { timeout: 5_000 });
    nth(reads, 1).ok({ ...windowOf([], 2, FROM_COPY), rows: [{ cidrId: 'sc_1', policyName: 'One', policyStatus: 'CANCELED' }, { cidrId: 'sc_2', policyName: 'Two', policyStatus: 'ACTIVE' }] });
    await settle();
    expect(capacityList.row(0)?.policyStatus).toBe('CANCELED');
    expect(capacitySelection.has('sc_1')).toBe(true);
    expect(capacitySelection.rows.map((row) => row.policyStatus)).toEqual(['CANCELED']);
  });
});

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

  it('keeps the rows on screen until a customer’s first answer replaces them, which brings the rows in view', async () => {
    const reads = hold('capacity.list');
    capacityList.open();
    nth(reads, 0).ok(windowOf(rowIds(0, LIST_PAGE_SIZE), 1_000, FROM_COPY));
    await settle();
    capacityList.show({ start: 0, end: 17 });
    capacityList.setCustomer('unassigned');
    // Not a page of 100: the rows in view and as many again, as a keystroke asks.
    expect(nth(reads, 1).input).toMatchObject({ customer: 'unassigned', offset: 0, limit: 34 });
    // Busy, the rows before stay until the answer: no placeholder rows, no summary and footer gone and back.
    expect(capacityList.fetching).toBe(1);
    expect(capacityList.total).toBe(1_000);
    expect(ids()).toHaveLength(LIST_PAGE_SIZE);
    nth(reads, 1).ok(windowOf(['sc_stray'], 1, FROM_COPY));
    await settle();
    expect(ids()).toEqual(['sc_stray']);
    expect(capacityList.total).toBe(1);
    expect(capacityList.fetching).toBe(0);
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
