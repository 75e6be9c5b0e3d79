/**
 * The customers proposed from what is in use are made once while the book, the linked accounts and the DR ids used
 * stay the same (issue 25, stall14): the capacity list's "no customer" filter asks for them at each choice, and each
 * ask read and checked every customer of the book and matched every linked account against it, one turn of the main
 * process (200-250 ms at load 33 while a refresh's pages were read). A real copy and a real own-data book.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CustomerBookService } from '../../electron/services/customers/customer-book.js';
import { CustomerHandlers } from '../../electron/services/customers/customer-handlers.js';
import { OwnDataDb } from '../../electron/services/own-data/own-data-db.js';
import { OwnDataService } from '../../electron/services/own-data/own-data-service.js';
import type { CurrentReplica } from '../../electron/services/replica/current-replica.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { CustomerMatcher } from '../../shared/customers/matching.js';
import type { CustomerProposal } from '../../shared/ipc/customers.js';
import type { LinkedAccount } from '../../shared/api/accounts.js';
import { BENCH_OWNER as owner, benchCurrentReplica } from '../../bench/support/bench-current-replica.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const linked = (name: string): LinkedAccount => ({ accountId: `id-${name}`, accountName: name, provider: 'AWS', status: 'LINKED', linkedAt: '2025-03-04T09:12:44.000Z' });

let dataDir: string;
let replica: CurrentReplica;
let book: CustomerBookService;
let handlers: CustomerHandlers;
let recent: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-proposals-kept-'));
  const secrets = new FixedSecretStore();
  const writer = await Replica.open({ dataDir, secrets, owner });
  await writeKind(writer, 'capacities', syntheticPolicies(50));
  await writeKind(writer, 'accounts', ['acct-1', 'acct-2', 'acct-3'].map(linked));
  await writer.close();
  replica = benchCurrentReplica(dataDir, secrets);
  const ownData = new OwnDataService({ dataDir, secrets, owner: () => owner });
  book = new CustomerBookService({ ownData });
  handlers = new CustomerHandlers({ book, replica, ownData, recentExternalIds: () => recent });
  await book.save({ name: 'Northwind', externalIds: ['CUST-1'], accounts: ['acct-1'], contact: '', notes: '' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await replica?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const propose = () => handlers.handlers()['customers.propose'](undefined) as Promise<CustomerProposal[]>;
const names = (proposals: readonly CustomerProposal[]) => proposals.map((proposal) => `${proposal.from}:${proposal.name}`).sort();

describe('the customers proposed', () => {
  it('are made once, from one read of the book, while the book, the linked accounts and the DR ids used stay the same', async () => {
    const first = await propose();
    const bookReads = vi.spyOn(OwnDataDb.prototype, 'records');
    const matched = vi.spyOn(CustomerMatcher.prototype, 'ofAccount');
    const again = await propose();
    expect(names(again)).toEqual(names(first));
    expect(names(first)).toEqual(['linked-account:acct-2', 'linked-account:acct-3']);
    expect(bookReads).not.toHaveBeenCalled();
    expect(matched).not.toHaveBeenCalled();
  });

  it('are made again when the book, the linked accounts or the DR ids used change', async () => {
    await propose();
    await book.save({ name: 'Contoso', externalIds: [], accounts: ['acct-2'], contact: '', notes: '' });
    expect(names(await propose())).toEqual(['linked-account:acct-3']);

    await replica.write((r) => writeKind(r, 'accounts', ['acct-1', 'acct-2', 'acct-3', 'acct-4'].map(linked)));
    expect(names(await propose())).toEqual(['linked-account:acct-3', 'linked-account:acct-4']);

    recent = ['CUST-1', 'CUST-9'];
    expect(names(await propose())).toEqual(['dr-id:CUST-9', 'linked-account:acct-3', 'linked-account:acct-4']);
  });

  it('are made again when the DR ids used change to ids that joined with a line break read the same (cust16)', async () => {
    // A settings file written by hand may hold any text as a remembered id; joined with "\n" these were one key.
    recent = ['CUST-7\nCUST-8'];
    const first = names(await propose());
    recent = ['CUST-7', 'CUST-8'];
    const second = names(await propose());
    expect(second).not.toEqual(first);
    expect(second).toEqual(expect.arrayContaining(['dr-id:CUST-7', 'dr-id:CUST-8']));
    recent = [];
  });

  it('hand back the book as it is after a write, and never an array a caller can change under the next one', async () => {
    const before = await book.customers();
    expect(Object.isFrozen(before)).toBe(true);
    expect(await book.customers()).toBe(before);
    const saved = await book.save({ name: 'Fabrikam', externalIds: [], accounts: [], contact: '', notes: '' });
    const after = await book.customers();
    expect(after).not.toBe(before);
    expect(after.map((customer) => customer.key)).toContain(saved.key);
    expect((await book.book()).customers.map((customer) => customer.key)).toContain(saved.key);
  });
});
