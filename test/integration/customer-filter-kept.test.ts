/**
 * The capacity list's customer filters are made once per book and copy, not per keystroke (issue 26's keystroke
 * budget): "no customer" lists every assigned account (about 6,000 at 2,000 customers), and each keystroke of a
 * search under it asks for the filter again. A real copy and a real own-data book; the builds are counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CustomerBookService } from '../../electron/services/customers/customer-book.js';
import { CustomerHandlers } from '../../electron/services/customers/customer-handlers.js';
import { OwnDataService } from '../../electron/services/own-data/own-data-service.js';
import type { CurrentReplica } from '../../electron/services/replica/current-replica.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { CustomerMatcher } from '../../shared/customers/matching.js';
import { UNASSIGNED } from '../../shared/ipc/customer-key.js';
import type { LocalCapacityQuery } from '../../shared/ipc/offline.js';
import { BENCH_OWNER as owner, benchCurrentReplica } from '../../bench/support/bench-current-replica.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const ACCOUNTS = 40;
let dataDir: string;
let replica: CurrentReplica;
let book: CustomerBookService;
let handlers: CustomerHandlers;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-filter-kept-'));
  const secrets = new FixedSecretStore();
  const writer = await Replica.open({ dataDir, secrets, owner });
  await writeKind(
    writer,
    'capacities',
    syntheticPolicies(2_000).map((policy, i) => ({ ...policy, cspAccountName: `acct-${i % ACCOUNTS}` })),
  );
  await writer.close();
  replica = benchCurrentReplica(dataDir, secrets);
  const ownData = new OwnDataService({ dataDir, secrets, owner: () => owner });
  book = new CustomerBookService({ ownData });
  handlers = new CustomerHandlers({ book, replica, ownData, recentExternalIds: () => [] });
  await book.save({ name: 'Northwind', externalIds: [], accounts: ['acct-1', 'acct-2'], contact: '', notes: '' });
  await book.save({ name: '__proto__', externalIds: [], accounts: ['ACCT-3 '], contact: '', notes: '' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await replica?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A search typed a letter at a time under a filter, each keystroke answered from the copy as the app asks it. */
async function typed(customer: string, word: string) {
  const answers = [];
  for (let i = 1; i <= word.length; i += 1) {
    const query = await handlers.scoped<LocalCapacityQuery>({ customer, text: word.slice(0, i), limit: 34 });
    answers.push({ query, window: await replica.queryCapacities(query) });
  }
  return answers;
}

describe('the customer filters of the capacity list', () => {
  it('makes the no-customer filter once while the book stays the same, and again when it changes', async () => {
    const builds = vi.spyOn(CustomerMatcher.prototype, 'assignedAccountKeys');
    const before = await typed(UNASSIGNED, 'sc_1');
    expect(builds).toHaveBeenCalledTimes(1);
    const filters = new Set(before.map(({ query }) => query.accounts));
    expect(filters.size).toBe(1);
    expect([...(before[0]?.query.accounts?.keys ?? [])].sort()).toEqual(['acct-1', 'acct-2', 'acct-3']);
    expect(before.every(({ window }) => window.rows.every((row) => !['acct-1', 'acct-2', 'acct-3'].includes(row.cspAccountName ?? '')))).toBe(true);

    await book.save({ name: 'Contoso', externalIds: [], accounts: ['acct-4'], contact: '', notes: '' });
    const after = await typed(UNASSIGNED, 'sc_1');
    expect(builds).toHaveBeenCalledTimes(2);
    expect(after[0]?.query.accounts?.keys).toContain('acct-4');
    expect(after.at(-1)?.window.rows.some((row) => row.cspAccountName === 'acct-4')).toBe(false);
    expect(after.at(-1)?.window.total).toBeLessThan(before.at(-1)?.window.total ?? 0);
  });

  it('makes one customer’s filter once too, named by a key such as __proto__ like any other', async () => {
    const customers = await book.customers();
    const proto = customers.find((customer) => customer.name === '__proto__');
    if (!proto) throw new Error('the book lost __proto__');
    const builds = vi.spyOn(CustomerMatcher.prototype, 'accountKeysOf');
    const answers = await typed(proto.key, 'sc_');
    expect(builds).toHaveBeenCalledTimes(1);
    expect(new Set(answers.map(({ query }) => query.accounts)).size).toBe(1);
    expect(answers[0]?.window.rows.every((row) => row.cspAccountName === 'acct-3')).toBe(true);
    expect(answers[0]?.window.total).toBeGreaterThan(0);
  });
});
