import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCondition, customerCapacities, customerCapacitiesOfRows } from '../../electron/services/customers/replica-accounts.js';
import { CapacityReplica } from '../../electron/services/replica/capacity-replica.js';
import { BOUGHT_STATUSES, bankFee, cardFee, summarizeCustomer } from '../../electron/services/customers/customer-summary.js';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { CustomerMatcher, accountKey } from '../../shared/customers/matching.js';
import { CapacityRow } from '../../shared/api/readers.js';
import type { Customer } from '../../shared/ipc/customers.js';

/**
 * A customer page's figures from the replica's columns through the account
 * index (electron/services/customers/replica-accounts.ts) against the
 * row-by-row pass over every whole record they replaced: the policies the
 * matcher gives the customer, summed by summarizeCustomer, and the columns the
 * page lists of the newest. On hostile lists:
 * accounts that differ only in case, spacing or Unicode form, prototype names,
 * bidi characters, 500-character names, policies of no account, missing and
 * odd prices, fees and dates, shared creation dates.
 */
const DAY = 86_400_000;
/** The slim rows in memory and their index built (a list query builds it, as the background does in slices). */
function loadWithIndex(replica: CapacityReplica): void {
  replica.load();
  replica.query({ status: undefined, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 1 });
}
const BOUGHT = new Set(BOUGHT_STATUSES);
const asOf = new Date(Date.UTC(2026, 5, 15, 9));
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-customer-page-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ACCOUNTS = ['Northwind-Prod', 'northwind-prod ', ' NORTHWIND-PROD', '__proto__', 'constructor', '\u202Eacct-rtl', 'e\u0301cole', 'école', 'x'.repeat(500), 'other', ''];
const account = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ACCOUNTS) }, { weight: 1, arbitrary: fc.constantFrom(undefined, 7) });
const status = fc.constantFrom('ACTIVE', 'READY_FOR_PURCHASE', 'EXPIRED', 'CANCELED', 'FAILED', 'COMPLETED', '__proto__', 'active', undefined);
const instant = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -400, max: 120 }).map((days) => new Date(asOf.getTime() + days * DAY).toISOString()) },
  { weight: 1, arbitrary: fc.constantFrom('2026-06-20T17:30:00+05:30', 'not a date', '', undefined) },
);
const money = fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0.005, undefined, null, 'lots'));
const rawPolicy = fc.record(
  {
    cidrId: fc.oneof(fc.constantFrom('__proto__', 'constructor', '\u202Esc_rtl', 'sc_1', 'sc_2'), fc.string({ minLength: 1, maxLength: 8 })),
    // A name is known or not (the slim table cannot tell an empty name from none).
    policyName: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constant(undefined)),
    policyStatus: status,
    cspAccountName: account,
    createdDate: fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', undefined),
    capacityConfiguration: fc.record({ launchDateTime: instant, endDateTime: instant, autoRenewalEnabled: fc.constantFrom(true, false, undefined) }, { requiredKeys: [] }),
    pricing: fc.record({ ourPrice: money, savings: money, creditCardProcessingFee: money, bankAccountProcessingFee: money }, { requiredKeys: [] }),
  },
  { requiredKeys: ['cidrId'] },
);
const list = fc.uniqueArray(rawPolicy, { minLength: 1, maxLength: 60, selector: (p) => p.cidrId });
/** Two customers holding some of the accounts as a person types them; an account is one customer's. */
const book = fc.tuple(fc.subarray(ACCOUNTS.filter(Boolean)), fc.subarray(ACCOUNTS.filter(Boolean))).map(([first, second]): Customer[] => [
  customer('cu_a', 'Northwind', first),
  customer('cu_b', 'Northwind', second.filter((a) => !first.some((b) => b.trim().normalize('NFC').toLowerCase() === a.trim().normalize('NFC').toLowerCase()))),
]);

/** What the customer page lists of a policy (renderer/views/customers/CustomerPageView.svelte), a missing text and an empty one alike. */
function listed(row: CapacityRow) {
  return {
    cidrId: row.cidrId,
    policyName: row.policyName || undefined,
    policyStatus: row.policyStatus,
    cspAccountName: row.cspAccountName,
    launch: row.capacityConfiguration?.launchDateTime || undefined,
    end: row.capacityConfiguration?.endDateTime || undefined,
    ourPrice: row.pricing?.ourPrice ?? undefined,
  };
}

function customer(key: string, name: string, accounts: string[]): Customer {
  return { key, name, externalIds: [], accounts, contact: '', notes: '', updatedAt: asOf.toISOString() };
}

describe('a customer page from the account index', () => {
  it('has the figures and rows of the row-by-row pass over every whole record, on hostile lists', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'hostile.db'), randomBytes(32));
    const inMemory = new CapacityReplica(db);
    try {
      await fc.assert(
        fc.asyncProperty(list, book, async (raws, customers) => {
          const rows = raws.flatMap((raw) => {
            const read = CapacityRow.safeParse(raw);
            return read.success ? [read.data] : [];
          });
          await inMemory.replaceAll(rows, asOf.toISOString());
          loadWithIndex(inMemory);
          const stored = db.allBodies();
          const matcher = new CustomerMatcher(customers);
          for (const { key } of customers) {
            const keys = [...matcher.accountKeysOf(key)];
            const theirs = stored.filter((row) => matcher.ofAccount(row.cspAccountName)?.key === key);
            const found = db.readWith((connection) => customerCapacities(connection, { keys, inside: true }, 5, BOUGHT_STATUSES));
            expect(summarizeCustomer(found.rows, [], asOf)).toEqual(summarizeCustomer(theirs, [], asOf));
            expect(found.rows.map((row) => row.cidrId).sort()).toEqual(theirs.map((row) => row.cidrId).sort());
            // The newest listed first, as the page lists them: by creation date, the later written first among equal dates.
            const newest = theirs.map((row, at) => ({ row, at })).sort((a, b) => (b.row.createdDate ?? '').localeCompare(a.row.createdDate ?? '') || b.at - a.at);
            expect(found.newest.map(listed)).toEqual(newest.slice(0, 5).map(({ row }) => listed(row)));
            // The slim rows in memory answer the same: the figures, every row in the same order, the newest listed.
            const slim = inMemory.rowsOfAccounts({ keys, inside: true }, BOUGHT);
            expect(slim).not.toBeNull();
            const fromMemory = customerCapacitiesOfRows(slim ?? [], 5, BOUGHT);
            expect(summarizeCustomer(fromMemory.rows, [], asOf)).toEqual(summarizeCustomer(found.rows, [], asOf));
            expect(fromMemory.rows.map((row) => row.cidrId)).toEqual(found.rows.map((row) => row.cidrId));
            expect(fromMemory.newest.map(listed)).toEqual(found.newest.map(listed));
          }
          const assigned = [...matcher.assignedAccountKeys()];
          const unassigned = db.readWith((connection) => {
            const where = accountCondition(connection, { keys: assigned, inside: false });
            return connection.prepare(`SELECT cidr_id FROM capacities WHERE ${where.sql}`).pluck().all(where.params) as string[];
          });
          expect(unassigned.sort()).toEqual(stored.filter((row) => matcher.ofAccount(row.cspAccountName) === null).map((row) => row.cidrId).sort());
        }),
        { numRuns: 120 },
      );
    } finally {
      await db.close();
    }
  }, 120_000);

  it('reads the account names again after a write-through adds one', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'names.db'), randomBytes(32));
    try {
      const policy = CapacityRow.parse({ cidrId: 'sc_1', cspAccountName: 'first', policyStatus: 'ACTIVE' });
      await db.replaceAll([policy], asOf.toISOString());
      const count = (keys: string[]) => db.readWith((connection) => customerCapacities(connection, { keys, inside: true }, 10, BOUGHT_STATUSES).rows.length);
      expect(count(['first'])).toBe(1);
      expect(count(['second'])).toBe(0);
      db.upsert({ ...policy, cidrId: 'sc_2', cspAccountName: 'Second ' });
      expect(count(['second'])).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('reads the processing fees (card and bank) from their columns, and from the record of a row written before them', async () => {
    const file = join(dir, 'fees.db');
    const key = randomBytes(32);
    const policies = [
      { cidrId: 'sc_card', cspAccountName: 'acct', policyStatus: 'ACTIVE', pricing: { creditCardProcessingFee: 12.5, bankAccountProcessingFee: 1 } },
      { cidrId: 'sc_bank', cspAccountName: 'acct', policyStatus: 'EXPIRED', pricing: { bankAccountProcessingFee: 3.25 } },
      { cidrId: 'sc_none', cspAccountName: 'acct', policyStatus: 'CANCELED', pricing: {} },
      { cidrId: 'sc_ready', cspAccountName: 'acct', policyStatus: 'READY_FOR_PURCHASE', pricing: { creditCardProcessingFee: 100 } },
    ].map((raw) => CapacityRow.parse(raw));
    const feesOf = (rows: CapacityRow[]) => {
      const { processingFeesByCard, processingFeesByBank } = summarizeCustomer(rows, [], asOf).totals;
      return [processingFeesByCard, processingFeesByBank];
    };
    const fees = (db: CapacityReplicaDb) => db.readWith((connection) => feesOf(customerCapacities(connection, { keys: ['acct'], inside: true }, 10, BOUGHT_STATUSES).rows));
    const feesInMemory = (db: CapacityReplicaDb) => {
      const replica = new CapacityReplica(db);
      loadWithIndex(replica);
      const slim = replica.rowsOfAccounts({ keys: ['acct'], inside: true }, BOUGHT);
      return slim && feesOf(customerCapacitiesOfRows(slim, 10, BOUGHT).rows);
    };
    const change = (sql: string) => {
      const connection = openKeyed(file, key, 1024);
      try {
        connection.exec(sql);
      } finally {
        connection.close();
      }
    };
    let db = CapacityReplicaDb.open(file, key);
    try {
      await db.replaceAll(policies, asOf.toISOString());
      const columns = db.readWith((connection) => connection.prepare('SELECT cidr_id, fee, bank_fee FROM capacities ORDER BY cidr_id').raw().all());
      expect(columns).toEqual([...policies].sort((a, b) => a.cidrId.localeCompare(b.cidrId)).map((policy) => [policy.cidrId, cardFee(policy), bankFee(policy)]));
    } finally {
      await db.close();
    }
    // The records say otherwise now: the page's sums are the columns', no record is read for them.
    change(`UPDATE capacity_bodies SET body = json_set(body, '$.pricing.creditCardProcessingFee', 1000) WHERE rid IN (SELECT rid FROM capacities WHERE cidr_id IN ('sc_card', 'sc_none'))`);
    db = CapacityReplicaDb.open(file, key);
    try {
      // By card: 12.5 + 3.25 (sc_bank states only a bank fee); by bank: 1 + 3.25. Before money14 one sum, 15.75.
      expect(fees(db)).toEqual([15.75, 4.25]);
      expect(feesInMemory(db)).toEqual([15.75, 4.25]);
    } finally {
      await db.close();
    }
    // A copy of the version before money14: one `fee` column holding the card fee else the bank fee, no bank column.
    // Its rows gain the bank columns unwritten, and both fees are read out of each record (its `fee` is not believed).
    change(`ALTER TABLE capacities DROP COLUMN bank_fee; ALTER TABLE capacities DROP COLUMN bank_fee_written; UPDATE capacities SET fee = 77 WHERE cidr_id = 'sc_bank'`);
    db = CapacityReplicaDb.open(file, key);
    try {
      expect(fees(db)).toEqual([2003.25, 1004.25]);
      // The slim rows in memory know no fee of these rows: the page is answered from the file.
      expect(feesInMemory(db)).toBeNull();
      // Written again (a write-through), a row's fees are its columns'.
      db.upsert(policies[0] as CapacityRow);
      expect(fees(db)).toEqual([1015.75, 1004.25]);
    } finally {
      await db.close();
    }
    // Older still, before any fee column: each read out of its record (sc_card's as written again just above).
    change('ALTER TABLE capacities DROP COLUMN fee; ALTER TABLE capacities DROP COLUMN fee_written; ALTER TABLE capacities DROP COLUMN bank_fee; ALTER TABLE capacities DROP COLUMN bank_fee_written;');
    db = CapacityReplicaDb.open(file, key);
    try {
      expect(fees(db)).toEqual([1015.75, 1004.25]);
      expect(feesInMemory(db)).toBeNull();
    } finally {
      await db.close();
    }
  });

  it('answers from the rows in memory as a write-through and a refresh left them', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'memory.db'), randomBytes(32));
    const replica = new CapacityReplica(db);
    try {
      const policy = (cidrId: string, cspAccountName: string, createdDate: string) =>
        CapacityRow.parse({ cidrId, cspAccountName, createdDate, policyStatus: 'ACTIVE', pricing: { ourPrice: 10, creditCardProcessingFee: 2 } });
      await replica.replaceAll([policy('sc_1', 'Acct', '2026-01-01T00:00:00.000Z'), policy('sc_2', 'other', '2026-01-02T00:00:00.000Z')], asOf.toISOString());
      loadWithIndex(replica);
      const theirs = () => customerCapacitiesOfRows(replica.rowsOfAccounts({ keys: ['acct'], inside: true }, BOUGHT) ?? [], 10, BOUGHT).rows.map((row) => [row.cidrId, row.cspAccountName]);
      expect(theirs()).toEqual([['sc_1', 'Acct']]);
      // Bought since (a write-through): theirs at once, newest first.
      replica.upsert(policy('sc_3', ' ACCT', '2026-03-01T00:00:00.000Z'));
      expect(theirs()).toEqual([['sc_3', ' ACCT'], ['sc_1', 'Acct']]);
      // Assigned elsewhere by the service (a refresh moved sc_1 to another account).
      await replica.replaceAll([policy('sc_1', 'other', '2026-01-01T00:00:00.000Z'), policy('sc_3', ' ACCT', '2026-03-01T00:00:00.000Z')], asOf.toISOString());
      loadWithIndex(replica);
      expect(theirs()).toEqual([['sc_3', ' ACCT']]);
    } finally {
      await db.close();
    }
  });
  it('lists the same policies from memory as from the file for an account whose name holds the search text\'s separator (U+0001)', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'separator.db'), randomBytes(32));
    const replica = new CapacityReplica(db);
    try {
      const hostile = 'Acme\u0001Prod';
      const policy = (cidrId: string, createdDate: string) => CapacityRow.parse({ cidrId, cspAccountName: hostile, createdDate, policyStatus: 'ACTIVE', pricing: { ourPrice: 10 } });
      await replica.replaceAll([policy('sc_1', '2026-01-01T00:00:00.000Z'), policy('sc_2', '2026-01-02T00:00:00.000Z')], asOf.toISOString());
      const filter = { keys: [accountKey(hostile)], inside: true };
      const fromFile = db.readWith((connection) => customerCapacities(connection, filter, 10, BOUGHT_STATUSES)).rows.map((row) => row.cidrId);
      expect(fromFile).toEqual(['sc_2', 'sc_1']);
      loadWithIndex(replica);
      expect(customerCapacitiesOfRows(replica.rowsOfAccounts(filter, BOUGHT) ?? [], 10, BOUGHT).rows.map((row) => row.cidrId)).toEqual(fromFile);
    } finally {
      await db.close();
    }
  });

  it('leaves a customer page to the file until the index is built, rather than building it in one piece', async () => {
    const db = CapacityReplicaDb.open(join(dir, 'no-index.db'), randomBytes(32));
    const replica = new CapacityReplica(db);
    try {
      await replica.replaceAll([CapacityRow.parse({ cidrId: 'sc_1', cspAccountName: 'Acct', createdDate: '2026-01-01T00:00:00.000Z', policyStatus: 'ACTIVE' })], asOf.toISOString());
      replica.load();
      expect(replica.rowsOfAccounts({ keys: ['acct'], inside: true }, BOUGHT)).toBeNull();
      loadWithIndex(replica);
      expect(replica.rowsOfAccounts({ keys: ['acct'], inside: true }, BOUGHT)?.map((row) => row.cidrId)).toEqual(['sc_1']);
    } finally {
      await db.close();
    }
  });
});
