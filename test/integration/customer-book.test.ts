/**
 * The customer book through the real dispatch and services, on the in-process
 * sandbox: kept per user, checked (names, ids and accounts are each one
 * customer's), imported from CSV row by row, proposed from what is in use,
 * and matched to the policies of the local copy (the capacity list's customer
 * filter, the customer page and the overview by customer).
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { BOOK_COLUMNS, bookRows } from '../../shared/customers/book-csv.js';
import { toCsv } from '../../shared/format/csv.js';
import { CUSTOMER_ROWS, type Customer, type CustomerBook, type CustomerImportReport, type CustomerPage, type CustomerPolicies, type CustomerProposal, type CustomersOverview } from '../../shared/ipc/customers.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ownerFolder } from '../../electron/services/platform/owner.js';
import type { CacheStatus } from '../../shared/ipc/offline.js';
import { MAX_REMEMBERED_CUSTOMERS, type Profile } from '../../shared/ipc/profiles.js';
import { ALEX, JORDAN, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

let app: FastApp;
let dataDir: string;

async function signIn(user = ALEX) {
  value(await app.call('session.signIn', { profileId: 'sandbox', username: user.username, password: user.password }));
}
const book = async () => value<CustomerBook>(await app.call('customers.list'));
const list = async (query: object) => value<{ rows: CapacityPolicy[]; total: number; local: boolean }>(await app.call('capacity.list', { limit: 500, ...query }));

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-customers-'));
  app = await startFastApp({ secrets: new FixedSecretStore(), dataDir });
  await signIn();
  value(await app.call('offline.sync'));
  // The window lands on the overview at a sign-in: until its first answer the overview by customer waits for it
  // (FirstScreen), 10 s of idle per test when no window asks.
  value(await app.call('overview.summary'));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the customer book', () => {
  it('keeps a customer, refuses a second of the same name, an id or an account another has, each at its field', async () => {
    const northwind = value<Customer>(await app.call('customers.save', { name: 'Northwind', externalIds: ['CUST-1001'], accounts: ['morgan-prod', 'MORGAN-PROD'] }));
    expect(northwind.accounts).toEqual(['morgan-prod']);
    const refused = async (draft: object) => {
      const result = await app.call('customers.save', draft);
      if (result.ok) throw new Error('expected a refusal');
      return result.error;
    };
    expect(await refused({ name: 'northwind', externalIds: ['CUST-9'] })).toMatchObject({ kind: 'invalid-input', field: 'name' });
    expect(await refused({ name: 'Other', externalIds: ['CUST-1001'] })).toMatchObject({ kind: 'invalid-input', field: 'externalIds' });
    expect(await refused({ name: 'Other', accounts: [' Morgan-Prod '] })).toMatchObject({ kind: 'invalid-input', field: 'accounts' });
    expect(await refused({ name: 'x'.repeat(501), accounts: ['a'] })).toMatchObject({ kind: 'invalid-input', field: 'name' });
    for (const name of ['__proto__', 'constructor', 'x'.repeat(500)]) {
      value(await app.call('customers.save', { name, accounts: [`acct-${name.slice(0, 20)}`] }));
    }
    expect((await book()).customers.map((c) => c.name).sort()).toEqual(['Northwind', '__proto__', 'constructor', 'x'.repeat(500)].sort());
    for (const customer of (await book()).customers.filter((c) => c.name !== 'Northwind')) value(await app.call('customers.remove', { key: customer.key }));
  });

  it('proposes the DR ids used and the linked accounts the book does not hold yet', async () => {
    value(await app.call('profiles.rememberCustomer', { customerId: 'CUST-1002' }));
    const proposals = value<CustomerProposal[]>(await app.call('customers.propose'));
    expect(proposals).toContainEqual({ name: 'CUST-1002', externalIds: ['CUST-1002'], accounts: [], from: 'dr-id' });
    expect(proposals.map((p) => p.name)).toContain('morgan-analytics');
    expect(proposals.map((p) => p.name)).not.toContain('morgan-prod');
  });

  it('filters the capacity list by customer and shows the policies of no customer as unassigned', async () => {
    const all = await list({});
    const northwind = (await book()).customers.find((c) => c.name === 'Northwind') as Customer;
    const theirs = await list({ customer: northwind.key });
    const unassigned = await list({ customer: 'unassigned' });
    expect(theirs.total).toBe(all.rows.filter((p) => p.cspAccountName === 'morgan-prod').length);
    expect(theirs.total).toBeGreaterThan(0);
    expect(theirs.rows.every((p) => p.cspAccountName === 'morgan-prod')).toBe(true);
    expect(unassigned.total + theirs.total).toBe(all.total);
    // Searching inside a customer's policies narrows them further.
    const searched = await list({ customer: northwind.key, text: theirs.rows[0]?.cidrId ?? '' });
    expect(searched.rows.map((p) => p.cidrId)).toEqual([theirs.rows[0]?.cidrId]);
  });

  it('answers a customer page from the local copy, its totals those of the policies it lists', async () => {
    const northwind = (await book()).customers.find((c) => c.name === 'Northwind') as Customer;
    const page = value<CustomerPage>(await app.call('customers.page', { key: northwind.key }));
    const theirs = await list({ customer: northwind.key });
    expect(page.capacity.total).toBe(theirs.total);
    expect(page.totals.activeCapacity).toBe(theirs.rows.filter((p) => p.policyStatus === 'ACTIVE').length);
    expect(page.fetchedAt).not.toBeNull();
    expect(page.horizons.map((h) => h.days)).toEqual([30, 60, 90]);
    // The page's answer carries its first frame's rows; the newest it lists come apart, the first the same.
    const listed = value<CustomerPolicies>(await app.call('customers.policies', { key: northwind.key }));
    expect(theirs.total).toBeGreaterThan(CUSTOMER_ROWS.first);
    expect(page.capacity.rows).toHaveLength(CUSTOMER_ROWS.first);
    expect(listed).toMatchObject({ total: theirs.total });
    expect(listed.rows).toHaveLength(Math.min(CUSTOMER_ROWS.listed, theirs.total));
    expect(page.capacity.rows.map((p) => p.cidrId)).toEqual(listed.rows.slice(0, CUSTOMER_ROWS.first).map((p) => p.cidrId));
    const overview = value<CustomersOverview>(await app.call('customers.overview'));
    expect(overview.bySpend[0]).toMatchObject({ key: northwind.key, activePolicies: page.totals.activeCapacity, monthlySpend: page.totals.monthlySpend });
  });

  it('counts in the monthly spend only the active policies that run now, and says how many launch later (money14)', async () => {
    const northwind = (await book()).customers.find((c) => c.name === 'Northwind') as Customer;
    const theirs = await list({ customer: northwind.key });
    expect(theirs.rows).toHaveLength(theirs.total);
    const page = value<CustomerPage>(await app.call('customers.page', { key: northwind.key }));
    const asOf = Date.parse(page.asOf);
    const active = theirs.rows.filter((p) => p.policyStatus === 'ACTIVE');
    const later = active.filter((p) => Date.parse(p.capacityConfiguration?.launchDateTime ?? '') > asOf);
    // The sandbox's seed has both kinds on this account: bought and running, bought and launching later.
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThan(active.length);
    // A month's share of each price over its window (the page's rule), summed apart for the two kinds.
    const month = (p: CapacityPolicy) => {
      const days = (Date.parse(p.capacityConfiguration?.endDateTime ?? '') - Date.parse(p.capacityConfiguration?.launchDateTime ?? '')) / 86_400_000;
      const price = p.pricing?.ourPrice ?? 0;
      return Number.isFinite(days) && days > 0 ? price * Math.min(1, 30 / days) : price;
    };
    const sum = (policies: CapacityPolicy[]) => policies.reduce((total, p) => total + month(p), 0);
    expect(page.totals.activeCapacity).toBe(active.length);
    expect(page.totals.launchingLater).toBe(later.length);
    // Before money14 the spend was the sum over every active policy, the ones launching later included.
    expect(page.totals.monthlySpend).toBeCloseTo(sum(active.filter((p) => !later.includes(p))), 1);
    expect(page.totals.monthlySpendLaunching).toBeCloseTo(sum(later), 1);
    // The overview's top customers count the same: every active policy, the month's spend of the running ones.
    const overview = value<CustomersOverview>(await app.call('customers.overview'));
    expect(overview.bySpend.find((s) => s.key === northwind.key)).toMatchObject({ activePolicies: active.length, monthlySpend: page.totals.monthlySpend });
  });

  it('sums the processing fees of their bought policies by card and by bank transfer, each as the service states it (money14)', async () => {
    const northwind = (await book()).customers.find((c) => c.name === 'Northwind') as Customer;
    const theirs = await list({ customer: northwind.key });
    const page = value<CustomerPage>(await app.call('customers.page', { key: northwind.key }));
    const bought = theirs.rows.filter((p) => ['ACTIVE', 'COMPLETED', 'EXPIRED', 'CANCELED'].includes(p.policyStatus ?? ''));
    const sum = (fee: (p: CapacityPolicy) => number) => Math.round(bought.reduce((total, p) => total + fee(p), 0) * 100) / 100;
    const card = (p: CapacityPolicy) => p.pricing?.creditCardProcessingFee ?? p.pricing?.bankAccountProcessingFee ?? 0;
    const bank = (p: CapacityPolicy) => p.pricing?.bankAccountProcessingFee ?? p.pricing?.creditCardProcessingFee ?? 0;
    // The sandbox states different fees for the two ways: one sum (the card fee) was wrong for a bank payer.
    expect(sum(card)).not.toBe(sum(bank));
    expect(page.totals.processingFeesByCard).toBeCloseTo(sum(card), 2);
    expect(page.totals.processingFeesByBank).toBeCloseTo(sum(bank), 2);
  });

  it('imports a CSV row by row: updates by name, adds, and says which lines it left out and why', async () => {
    const before = await book();
    const csv = toCsv(
      [...BOOK_COLUMNS],
      [
        ...bookRows(before.customers),
        ['Contoso', 'CUST-1002', 'morgan-analytics', '=cmd|"/c calc"!A1', 'multi\nline'],
        ['contoso', 'CUST-7', '', '', ''],
        ['Thief', 'CUST-1001', '', '', ''],
        ['', 'CUST-8', '', '', ''],
      ],
    );
    const report = value<CustomerImportReport>(await app.call('customers.import', { csv }));
    expect(report).toMatchObject({ added: 1, updated: 0, unchanged: 1 });
    expect(report.rejected.map((r) => r.line)).toEqual([4, 5, 6]);
    expect(report.rejected[1]?.reason).toContain('Northwind');
    const contoso = report.book.customers.find((c) => c.name === 'Contoso');
    expect(contoso).toMatchObject({ externalIds: ['CUST-1002'], accounts: ['morgan-analytics'], contact: '=cmd|"/c calc"!A1', notes: 'multi\nline' });
    const broken = await app.call('customers.import', { csv: '"unterminated' });
    expect(broken).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'csv' } });
    expect((await book()).customers).toHaveLength(report.book.customers.length);
  });

  it('keeps "Pays by", exports and imports it, and a book exported before the column keeps it (cust16)', async () => {
    const saved = value<Customer>(await app.call('customers.save', { name: 'Pays-by Ltd', externalIds: ['CUST-9101'], paysBy: 'bank' }));
    expect(saved.paysBy).toBe('bank');
    // Saved again without saying (not from the form): kept.
    expect(value<Customer>(await app.call('customers.save', { key: saved.key, name: 'Pays-by Ltd', externalIds: ['CUST-9101'] })).paysBy).toBe('bank');
    const exported = bookRows((await book()).customers);
    const at = BOOK_COLUMNS.indexOf('Pays by');
    expect(exported.find((row) => row[0] === 'Pays-by Ltd')?.[at]).toBe('Bank transfer');
    const paysBy = async () => (await book()).customers.find((c) => c.name === 'Pays-by Ltd')?.paysBy;

    // A file exported before the column: the row updates the contact, and how they pay stays.
    const older = toCsv(['Name', 'External customer ids', 'Linked accounts', 'Contact', 'Notes'], [['Pays-by Ltd', 'CUST-9101', '', 'ap@pays-by.example', '']]);
    expect(value<CustomerImportReport>(await app.call('customers.import', { csv: older }))).toMatchObject({ updated: 1, rejected: [] });
    expect(await paysBy()).toBe('bank');

    const withColumn = (cell: string) => toCsv([...BOOK_COLUMNS], [['Pays-by Ltd', 'CUST-9101', '', 'ap@pays-by.example', '', cell]]);
    expect(value<CustomerImportReport>(await app.call('customers.import', { csv: withColumn('card') }))).toMatchObject({ updated: 1, rejected: [] });
    expect(await paysBy()).toBe('card');
    const refused = value<CustomerImportReport>(await app.call('customers.import', { csv: withColumn('cheque') }));
    expect(refused.rejected[0]?.reason).toContain('Pays by');
    expect(await paysBy()).toBe('card');
    // Empty in a file that has the column: not known.
    expect(value<CustomerImportReport>(await app.call('customers.import', { csv: withColumn('') }))).toMatchObject({ updated: 1 });
    expect(await paysBy()).toBeUndefined();
    value(await app.call('customers.remove', { key: saved.key }));
  });

  it('answers the filter, the page, the DR lists and the palette the same with the service down', async () => {
    const northwind = (await book()).customers.find((c) => c.name === 'Northwind') as Customer;
    // The copy holds the DR lists of the ids used (a sync fills them), as it does after any sign-in.
    value(await app.call('profiles.rememberCustomer', { customerId: 'CUST-1001' }));
    value(await app.call('offline.sync'));
    const online = { list: await list({ customer: northwind.key }), page: value<CustomerPage>(await app.call('customers.page', { key: northwind.key })) };
    await app.controls.addFault({ pathPrefix: '/external/api/v1/', dropRate: 1 });
    try {
      const offline = await list({ customer: northwind.key });
      expect(offline.total).toBe(online.list.total);
      const offlineTotals = value<CustomerPage>(await app.call('customers.page', { key: northwind.key })).totals;
      expect(value<CustomerPolicies>(await app.call('customers.policies', { key: northwind.key })).total).toBe(online.list.total);
      // Savings delivered so far grow with the clock between the two reads: the same within a cent or two.
      const { savingsThisMonth, savingsYearToDate, ...rest } = offlineTotals;
      const { savingsThisMonth: onlineMonth, savingsYearToDate: onlineYear, ...onlineRest } = online.page.totals;
      expect(rest).toEqual(onlineRest);
      expect(Math.abs(savingsThisMonth - onlineMonth)).toBeLessThan(1);
      expect(Math.abs(savingsYearToDate - onlineYear)).toBeLessThan(1);
      const dr = value<{ data: { cidrId: string }[]; origin: { source: string } }>(await app.call('cyber.list', { customerId: 'CUST-1001', page: 1, pageSize: 10 }));
      expect(dr.origin.source).toBe('replica');
      const first = dr.data[0]!.cidrId;
      expect(value<Array<{ cidrId: string; customerId: string }>>(await app.call('cyber.find', { text: first }))).toContainEqual(expect.objectContaining({ cidrId: first, customerId: 'CUST-1001' }));
    } finally {
      await app.controls.clearFaults();
    }
  });

  it('never shows one user the book of another', async () => {
    value(await app.call('session.signOut'));
    await signIn(JORDAN);
    expect((await book()).customers).toEqual([]);
    // Nor the DR ids another used (day17: Jordan was offered Alex's "CUST-1002 — DR id you used").
    const sandboxProfile = async () => value<Profile[]>(await app.call('profiles.list', undefined)).find((p) => p.id === 'sandbox');
    expect((await sandboxProfile())?.lastCustomerIds).toEqual([]);
    expect(value<CustomerProposal[]>(await app.call('customers.propose')).filter((p) => p.from === 'dr-id')).toEqual([]);
    value(await app.call('customers.save', { name: 'Northwind', externalIds: ['CUST-2001'] }));
    value(await app.call('session.signOut'));
    await signIn(ALEX);
    expect((await book()).customers.find((c) => c.name === 'Northwind')?.externalIds).toEqual(['CUST-1001']);
    expect((await sandboxProfile())?.lastCustomerIds).toContain('CUST-1002');
  });
});

describe('the book is the person’s own data, not the copy', () => {
  it('survives a full re-sync, a copy removed at sign-out, a restart and a copy found unreadable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-customers-kept-'));
    const secrets = new FixedSecretStore();
    let kept: FastApp | null = null;
    const start = async () => {
      kept = await startFastApp({ secrets, dataDir: dir });
      value(await kept.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
      return kept;
    };
    try {
      let one = await start();
      value(await one.call('offline.sync'));
      value(await one.call('customers.save', { name: '__proto__ Northwind', externalIds: ['CUST-1001'], accounts: ['morgan-prod'], notes: 'renewal call in May' }));
      const names = async (app: FastApp) => value<CustomerBook>(await app.call('customers.list')).customers.map((c) => [c.name, c.notes]);
      const before = await names(one);
      expect(before).toEqual([['__proto__ Northwind', 'renewal call in May']]);

      value(await one.call('offline.sync'));
      expect(await names(one)).toEqual(before);

      value(await one.call('offline.wipe'));
      value(await one.call('session.signOut'));
      value(await one.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
      expect(await names(one)).toEqual(before);
      value(await one.call('offline.sync'));

      await one.close();
      one = await start();
      expect(await names(one)).toEqual(before);

      await one.close();
      const replica = join(dir, 'cache', ownerFolder({ profileId: 'sandbox', username: ALEX.username }), 'replica.db');
      const handle = await open(replica, 'r+');
      const byte = Buffer.alloc(1);
      await handle.read(byte, 0, 1, 100);
      byte[0] = byte[0]! ^ 0x01;
      await handle.write(byte, 0, 1, 100);
      await handle.close();
      one = await start();
      expect(value<CacheStatus>(await one.call('offline.status')).unreadable).toMatchObject({ reason: 'damaged' });
      expect(await names(one)).toEqual(before);
      // With no copy to read, the customer page still answers (no policies, and says there is no copy).
      const key = value<CustomerBook>(await one.call('customers.list')).customers[0]!.key;
      expect(value<CustomerPage>(await one.call('customers.page', { key }))).toMatchObject({ fetchedAt: null, capacity: { total: 0 } });
    } finally {
      await (kept as FastApp | null)?.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the DR ids proposed (ux14)', () => {
  it('proposes every DR id whose list the copy keeps, after the profile remembers only the last few', async () => {
    for (const customer of (await book()).customers) value(await app.call('customers.remove', { key: customer.key }));
    value(await app.call('profiles.rememberCustomer', { customerId: 'CUST-1002' }));
    // The refresh reads the DR lists of the ids remembered: the copy keeps CUST-1002's.
    value(await app.call('offline.sync'));
    // Then more ids are used than the profile remembers: CUST-1002 leaves its list, not the copy.
    for (let i = 0; i < MAX_REMEMBERED_CUSTOMERS; i++) value(await app.call('profiles.rememberCustomer', { customerId: `CUST-90${i}` }));
    const proposals = value<CustomerProposal[]>(await app.call('customers.propose'));
    expect(proposals).toContainEqual({ name: 'CUST-1002', externalIds: ['CUST-1002'], accounts: [], from: 'dr-id' });
    // Most recent first, then the kept ones.
    const drIds = proposals.filter((p) => p.from === 'dr-id').map((p) => p.name);
    expect(drIds[0]).toBe(`CUST-90${MAX_REMEMBERED_CUSTOMERS - 1}`);
    expect(drIds.at(-1)).toBe('CUST-1002');
  });
});
