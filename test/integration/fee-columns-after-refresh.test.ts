/**
 * review14, against money14's bank-fee columns (d65bf2a): a copy of the version before them gains `bank_fee` and
 * `bank_fee_written` 0 on every row, and its fees are then read out of each record, the slim rows in memory refused
 * for the customer page (the path the fee column was made to end: 3,000 records read for a customer of 5,000
 * policies). A refresh over the copy writes only the rows whose record changed, and most policies never change again
 * (expired, completed): without more, an updated copy kept the slow path for good. The first refresh after the update
 * must leave every row with its fee columns written, whatever it changed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { customerCapacitiesOfRows } from '../../electron/services/customers/replica-accounts.js';
import { BOUGHT_STATUSES, summarizeCustomer } from '../../electron/services/customers/customer-summary.js';
import { CapacityReplica } from '../../electron/services/replica/capacity-replica.js';
import { CapacityReplicaDb } from '../../electron/services/replica/capacity-replica-db.js';
import { openKeyed } from '../../electron/services/platform/sqlcipher.js';
import { CapacityRow } from '../../shared/api/readers.js';

const BOUGHT = new Set(BOUGHT_STATUSES);
const asOf = new Date(Date.UTC(2026, 5, 15, 9));
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-fee-columns-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a copy made before the bank-fee columns has them written for every row by its next refresh, the slim rows serving the page again', async () => {
  const file = join(dir, 'older.db');
  const key = randomBytes(32);
  const policies = [
    { cidrId: 'sc_card', cspAccountName: 'acct', policyStatus: 'EXPIRED', pricing: { creditCardProcessingFee: 12.5, bankAccountProcessingFee: 1 } },
    { cidrId: 'sc_bank', cspAccountName: 'acct', policyStatus: 'COMPLETED', pricing: { bankAccountProcessingFee: 3.25 } },
    { cidrId: 'sc_active', cspAccountName: 'acct', policyStatus: 'ACTIVE', pricing: { creditCardProcessingFee: 2 } },
  ].map((raw) => CapacityRow.parse(raw));
  const fees = (db: CapacityReplicaDb) => {
    const replica = new CapacityReplica(db);
    replica.load();
    replica.query({ status: undefined, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 1 });
    const slim = replica.rowsOfAccounts({ keys: ['acct'], inside: true }, BOUGHT);
    if (!slim) return null;
    const { processingFeesByCard, processingFeesByBank } = summarizeCustomer(customerCapacitiesOfRows(slim, 10, BOUGHT).rows, [], asOf).totals;
    return [processingFeesByCard, processingFeesByBank];
  };

  let db = CapacityReplicaDb.open(file, key);
  try {
    await db.replaceAll(policies, asOf.toISOString());
  } finally {
    await db.close();
  }
  // As the version before money14 left it: no bank columns.
  const older = openKeyed(file, key, 1024);
  older.exec('ALTER TABLE capacities DROP COLUMN bank_fee; ALTER TABLE capacities DROP COLUMN bank_fee_written;');
  older.close();

  db = CapacityReplicaDb.open(file, key);
  try {
    // Updated, before any refresh: the records answer (the slim rows know no fee).
    expect(fees(db)).toBeNull();
    // The next refresh, the service's list unchanged.
    await db.replaceAll(policies, new Date(asOf.getTime() + 60_000).toISOString());
    const unwritten = db.readWith((connection) => connection.prepare('SELECT count(*) FROM capacities WHERE bank_fee_written = 0').pluck().get());
    expect(unwritten).toBe(0);
  } finally {
    await db.close();
  }
  db = CapacityReplicaDb.open(file, key);
  try {
    // By card: 12.5 + 3.25 (a bank fee only counts both ways) + 2; by bank: 1 + 3.25 + 2 (a card fee only likewise).
    expect(fees(db)).toEqual([17.75, 6.25]);
  } finally {
    await db.close();
  }
});
