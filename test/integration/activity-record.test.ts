/**
 * The per-policy activity record: written where each action's answer is known
 * (real IPC dispatch, real services, the sandbox over HTTP), kept in the
 * signed-in user's encrypted own data apart from the replica a sync replaces,
 * and read back by activity.list, offline too.
 */
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberListItem } from '../../shared/api/cyber.js';
import type { ActivityList } from '../../shared/ipc/activity.js';
import type { CancelResult, TerminateResult } from '../../shared/ipc/money-results.js';
import type { MoneyState } from '../../shared/ipc/money.js';
import { ActivityLog } from '../../electron/services/activity/activity-log.js';
import { OwnDataService } from '../../electron/services/own-data/own-data-service.js';
import { Replica } from '../../electron/services/replica/replica.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { AFTER_READ_BACKS_MS, ALEX, JORDAN, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value, take, moneyStock } from '../support/ipc-result.js';
import { writeKind } from '../../electron/services/replica/replica-writes.js';

const PURCHASE = '/external/api/v1/flexcompute/purchase';

let app: FastApp;
let dataDir: string;
let ready: CapacityPolicy[];
let active: CapacityPolicy[];
let cyber: CyberListItem[];

async function activityOf(cidrId: string, policyKind: 'capacity' | 'cyber' = 'capacity'): Promise<ActivityList> {
  return value<ActivityList>(await app.call('activity.list', { policyKind, policyId: cidrId }));
}

async function signIn(user = ALEX) {
  await app.signIn('sandbox', user);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-activity-'));
  // A keychain that answers: the replica is an encrypted file that outlives the session.
  app = await startFastApp({ secrets: new FixedSecretStore(), dataDir, shortTimeouts: true, moneyFinalAfterMs: AFTER_READ_BACKS_MS + 2_000 });
  await signIn();
  ({ ready, active, cyber } = await moneyStock(app));
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});
afterEach(() => app.controls.clearFaults());

describe('each action is recorded where its answer is known', () => {
  it('a cancellation keeps its fee, when and by whom, in this environment', async () => {
    const policy = take(active);
    expect(await activityOf(policy.cidrId)).toEqual({ entries: [], persistent: true });
    const result = value<CancelResult>(await app.call('capacity.cancel', { cidrId: policy.cidrId }));
    const { entries, persistent } = await activityOf(policy.cidrId);
    expect(persistent).toBe(true);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      policyKind: 'capacity',
      cidrId: policy.cidrId,
      action: 'cancel',
      outcome: 'succeeded',
      fee: result.fee,
      username: ALEX.username,
      profileId: 'sandbox',
      reason: null,
    });
    expect(result.fee).not.toBeNull();
    expect(Date.now() - Date.parse(entries[0]!.at)).toBeLessThan(60_000);
    // Never a secret: the password is nowhere in what is kept.
    expect(JSON.stringify(entries)).not.toContain(ALEX.password);
  });

  it('a purchase keeps its price; configuration and renewal changes keep what was set; newest first', async () => {
    const policy = take(ready);
    const bought = value<CapacityPolicy>(await app.call('capacity.purchase', { cidrId: policy.cidrId }));
    value(await app.call('capacity.configure', { cidrId: policy.cidrId, vpc: 'vpc-0a1b2c3d', ebsVolumeSize: 200 }));
    value(await app.call('capacity.setAutoRenewal', { cidrId: policy.cidrId, autoRenewalEnabled: true, frequency: 'ONE_MONTH' }));
    value(await app.call('capacity.setAutoRenewal', { cidrId: policy.cidrId, autoRenewalEnabled: false }));
    const { entries } = await activityOf(policy.cidrId);
    expect(entries.map((entry) => [entry.action, entry.outcome])).toEqual([
      ['autoRenewal', 'succeeded'],
      ['autoRenewal', 'succeeded'],
      ['configure', 'succeeded'],
      ['purchase', 'succeeded'],
    ]);
    expect(entries[0]!.autoRenewal).toEqual({ enabled: false, frequency: null });
    expect(entries[1]!.autoRenewal).toEqual({ enabled: true, frequency: 'ONE_MONTH' });
    expect(entries[2]!.configured).toEqual([
      { field: 'vpc', value: 'vpc-0a1b2c3d' },
      { field: 'ebsVolumeSize', value: '200' },
    ]);
    expect(entries[3]!.price).toBe(bought.pricing.ourPrice);
  });

  it('a refusal is recorded with its kind, and a DR termination as the DR policy’s', async () => {
    const notBought = take(ready);
    const refused = await app.call('capacity.cancel', { cidrId: notBought.cidrId });
    expect(refused.ok).toBe(false);
    const [entry] = (await activityOf(notBought.cidrId)).entries;
    expect(entry).toMatchObject({ action: 'cancel', outcome: 'not-done', fee: null, reason: { kind: refused.ok ? 'ok' : refused.error.kind } });
    // A configuration the service fails keeps what was asked for.
    await app.controls.addFault({ pathPrefix: '/external/api/v1/flexcompute/capacity-configuration', method: 'PUT', errorRate: 1, errorStatus: 404 });
    const notConfigured = await app.call('capacity.configure', { cidrId: notBought.cidrId, vpc: 'vpc-0a1b2c3d' });
    await app.controls.clearFaults();
    expect(notConfigured.ok).toBe(false);
    expect((await activityOf(notBought.cidrId)).entries[0]).toMatchObject({
      action: 'configure',
      outcome: 'not-done',
      configured: [{ field: 'vpc', value: 'vpc-0a1b2c3d' }],
      reason: { kind: notConfigured.ok ? 'ok' : notConfigured.error.kind },
    });

    const dr = take(cyber);
    const terminated = value<TerminateResult>(await app.call('cyber.terminate', { cidrId: dr.cidrId }));
    expect((await activityOf(dr.cidrId, 'cyber')).entries).toMatchObject([
      { policyKind: 'cyber', action: 'terminate', outcome: 'succeeded', eventId: terminated.eventId },
    ]);
    // The two kinds are apart: the capacity record of that id holds nothing.
    expect((await activityOf(dr.cidrId, 'capacity')).entries).toEqual([]);
  });

  it('parallel cancellations of one policy send one request and record it once', async () => {
    const policy = take(active);
    await Promise.all(Array.from({ length: 5 }, () => app.call('capacity.cancel', { cidrId: policy.cidrId })));
    expect((await activityOf(policy.cidrId)).entries.map((entry) => entry.action)).toEqual(['cancel']);
  });

  it('an unknown outcome is recorded as such, then as settled when a read-back shows it', async () => {
    const policy = take(ready);
    // The service carries the purchase out after our timeout and our read-backs.
    await app.controls.addFault({ pathPrefix: PURCHASE, method: 'POST', latencyMs: AFTER_READ_BACKS_MS });
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect((await activityOf(policy.cidrId)).entries).toMatchObject([{ action: 'purchase', outcome: 'unknown', reason: { kind: 'timeout' } }]);
    await vi.waitFor(
      async () => expect(value<MoneyState>(await app.call('money.check', { cidrId: policy.cidrId }))).toMatchObject({ state: 'free', outcome: 'done' }),
      { timeout: AFTER_READ_BACKS_MS + 4_000, interval: 250 },
    );
    expect((await activityOf(policy.cidrId)).entries.map((entry) => entry.outcome)).toEqual(['settled-done', 'unknown']);
  }, 30_000);
});

describe('where the record is kept', () => {
  it('a re-sync keeps it; offline review shows it; another user does not see it; the same user does again', async () => {
    const policy = take(active);
    value(await app.call('capacity.cancel', { cidrId: policy.cidrId }));
    const before = await activityOf(policy.cidrId);
    expect(before.entries).toHaveLength(1);

    value(await app.call('offline.sync'));
    expect(await activityOf(policy.cidrId)).toEqual(before);

    value(await app.call('offline.enter', { profileId: 'sandbox' }));
    expect(await activityOf(policy.cidrId)).toEqual(before);
    value(await app.call('offline.leave'));

    await signIn(JORDAN);
    expect((await activityOf(policy.cidrId)).entries).toEqual([]);
    await signIn(ALEX);
    expect(await activityOf(policy.cidrId)).toEqual(before);
  }, 60_000);

  it('hostile policy ids are ordinary keys', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-activity-ids-'));
    const owner = { profileId: 'sandbox', username: 'ids@example.com' };
    const ownData = ownDataOver(dir, new FixedSecretStore(), owner);
    const reported: unknown[] = [];
    const log = new ActivityLog({ ownData, session: { status: () => ({ signedIn: true, ...owner, keychain: { kind: 'keychain' as const } }) }, report: (e) => reported.push(e) });
    try {
      await log.record(log.owner(), { policyKind: 'capacity', cidrId: '__proto__', action: 'cancel' }, 'succeeded', { fee: 12.5 });
      await log.record(log.owner(), { policyKind: 'cyber', cidrId: 'constructor', action: 'terminate' }, 'succeeded', { eventId: 7 });
      expect(reported).toEqual([]);
      expect((await log.list('capacity', '__proto__')).entries).toMatchObject([{ cidrId: '__proto__', fee: 12.5 }]);
      expect((await log.list('cyber', 'constructor')).entries).toMatchObject([{ cidrId: 'constructor', eventId: 7 }]);
      expect((await log.list('capacity', 'constructor')).entries).toEqual([]);
      expect((await log.list('capacity', 'toString')).entries).toEqual([]);
      // Through the channel too: the id passes the contract and reads as an empty record.
      expect(await activityOf('__proto__')).toEqual({ entries: [], persistent: true });
    } finally {
      await ownData.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a damaged copy', () => {
  it('does not take the activity record along: it lives in own data, apart from the replica', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-activity-damaged-'));
    const owner = { profileId: 'sandbox', username: 'damaged@example.com' };
    const secrets = new FixedSecretStore();
    try {
      const cache = await Replica.open({ dataDir: dir, secrets, owner });
      await writeKind(cache, 'capacities', syntheticPolicies(50));
      await cache.close();
      const ownData = ownDataOver(dir, secrets, owner);
      const log = new ActivityLog({ ownData, session: signedIn(owner) });
      await log.record(log.owner(), { policyKind: 'capacity', cidrId: 'sc_1', action: 'cancel' }, 'succeeded', { fee: 99 });
      // One byte of the replica's first page flipped: SQLCipher's authentication fails on open.
      const file = join(cache.dir, 'replica.db');
      const handle = await open(file, 'r+');
      const byte = Buffer.alloc(1);
      await handle.read(byte, 0, 1, 100);
      byte[0] = byte[0]! ^ 0x01;
      await handle.write(byte, 0, 1, 100);
      await handle.close();
      expect((await stat(file)).size).toBeGreaterThan(0);

      const reopened = await Replica.open({ dataDir: dir, secrets, owner });
      expect(reopened.unreadable).toMatchObject({ state: 'unreadable', reason: 'damaged' });
      await reopened.close();
      expect((await log.list('capacity', 'sc_1')).entries.map((entry) => entry.fee)).toEqual([99]);
      await ownData.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('without a keychain', () => {
  it('the record is kept in memory and says it lives for this session only', async () => {
    const memory = await startFastApp();
    try {
      value(await memory.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
      const rows = value<{ rows: CapacityPolicy[] }>(await memory.call('capacity.list', { status: 'ACTIVE', limit: 100 })).rows;
      const policy = rows.at(-1)!;
      value(await memory.call('capacity.cancel', { cidrId: policy.cidrId }));
      const list = value<ActivityList>(await memory.call('activity.list', { policyKind: 'capacity', policyId: policy.cidrId }));
      expect(list.persistent).toBe(false);
      expect(list.entries).toMatchObject([{ action: 'cancel', outcome: 'succeeded' }]);
    } finally {
      await memory.close();
    }
  });
});

function signedIn(owner: { profileId: string; username: string }) {
  return { status: () => ({ signedIn: true, ...owner, keychain: { kind: 'keychain' as const } }) };
}

/** The own data of one user over real files and real crypto. */
function ownDataOver(dataDir: string, secrets: SecretStore, owner: { profileId: string; username: string }) {
  return new OwnDataService({ dataDir, secrets, owner: () => owner });
}
