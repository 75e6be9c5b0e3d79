/**
 * A re-sync that renames a linked account (issue 26): the policies held in it
 * now carry the new name in `cspAccountName`, and a customer who lists the
 * account by its id owns them at once, in the capacity list's customer
 * filter, the "no customer" filter, the customer page, the overview by
 * customer and the worklist's names. The sandbox is renamed over HTTP, the
 * app re-syncs through its real services.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { Customer, CustomerPage, CustomersOverview } from '../../shared/ipc/customers.js';
import type { Result } from '../../shared/ipc/result.js';
import type { WorklistWindow } from '../../shared/ipc/worklist.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
}

const PROD = ALEX.linkedAccounts.find((account) => account.accountName === 'morgan-prod')!;
const RENAMED = 'morgan-production';

let app: FastApp;
let dataDir: string;
let northwind: Customer;

const list = async (query: object) => value<{ rows: CapacityPolicy[]; total: number }>(await app.call('capacity.list', { limit: 500, ...query }));

/** What the customer filter, its opposite, the page, the overview and the worklist say of Northwind's policies. */
async function whatTheAppSays() {
  const theirs = await list({ customer: northwind.key });
  const unassigned = await list({ customer: 'unassigned' });
  const page = value<CustomerPage>(await app.call('customers.page', { key: northwind.key }));
  const overview = value<CustomersOverview>(await app.call('customers.overview'));
  const worklist = value<WorklistWindow>(await app.call('worklist.query', { horizonDays: 90, customer: northwind.name, limit: 500 }));
  return { theirs, unassigned, page, overview, worklist };
}

/** Every policy of the copy held in the account, under the name it has now. */
async function heldIn(accountName: string) {
  return (await list({})).rows.filter((policy) => policy.cspAccountName === accountName);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-account-rename-'));
  app = await startFastApp({ secrets: new FixedSecretStore(), dataDir });
  value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
  value(await app.call('offline.sync'));
  // The window lands on the overview at a sign-in: until its first answer the overview by customer waits for it
  // (FirstScreen), 10 s of idle per call when no window asks.
  value(await app.call('overview.summary'));
  // By the account's id, as a person may copy it from the cloud's console: the id stays when the name changes.
  northwind = value<Customer>(await app.call('customers.save', { name: 'Northwind', accounts: [PROD.accountId] }));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a re-sync that renames a linked account', () => {
  it('matches the renamed account’s policies to their customer at once: filter, no-customer filter, page, overview, worklist', async () => {
    const before = await whatTheAppSays();
    const held = await heldIn(PROD.accountName);
    expect(held.length).toBeGreaterThan(0);
    expect(before.theirs.total).toBe(held.length);
    expect(before.worklist.total).toBeGreaterThan(0);

    await app.controls.renameAccount({ username: ALEX.username, accountId: PROD.accountId, accountName: RENAMED });
    value(await app.call('offline.sync'));

    const renamed = await heldIn(RENAMED);
    expect(renamed.map((policy) => policy.cidrId).sort()).toEqual(held.map((policy) => policy.cidrId).sort());
    expect(await heldIn(PROD.accountName)).toEqual([]);

    const after = await whatTheAppSays();
    const all = await list({});
    expect(after.theirs.rows.map((policy) => policy.cidrId).sort()).toEqual(renamed.map((policy) => policy.cidrId).sort());
    expect(after.unassigned.total + after.theirs.total).toBe(all.total);
    expect(after.unassigned.rows.some((policy) => policy.cspAccountName === RENAMED)).toBe(false);
    expect(after.page.capacity.total).toBe(renamed.length);
    expect(after.page.totals.activeCapacity).toBe(before.page.totals.activeCapacity);
    expect(after.page.totals.monthlySpend).toBe(before.page.totals.monthlySpend);
    expect(after.overview.bySpend.find((standing) => standing.key === northwind.key)).toEqual(
      before.overview.bySpend.find((standing) => standing.key === northwind.key),
    );
    expect(after.worklist.rows.map((row) => row.policy.cidrId)).toEqual(before.worklist.rows.map((row) => row.policy.cidrId));
    expect(after.worklist.rows.every((row) => row.customer === northwind.name)).toBe(true);
  });
});

describe('the customer page’s activity', () => {
  it('lists what this app did to their policies, read in one go, and nothing done to another customer’s', async () => {
    const active = (await list({ status: 'ACTIVE' })).rows;
    const theirs = active.find((policy) => policy.cspAccountName === RENAMED)!;
    const nobodys = active.find((policy) => policy.cspAccountName !== RENAMED)!;
    for (const policy of [theirs, nobodys]) value(await app.call('capacity.setAutoRenewal', { cidrId: policy.cidrId, autoRenewalEnabled: false }));
    const page = value<CustomerPage>(await app.call('customers.page', { key: northwind.key }));
    expect(page.activity.map((entry) => entry.cidrId)).toEqual([theirs.cidrId]);
    expect(page.activity[0]).toMatchObject({ policyKind: 'capacity', cidrId: theirs.cidrId });
  });
});
