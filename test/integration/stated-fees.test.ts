/**
 * The stated cancellation fees in one read (activity.statedFees): through the
 * real IPC dispatch and services, the sandbox over HTTP, each cancel's fee as
 * the service stated it, kept in own data across a re-sync and per user.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { StatedFees } from '../../shared/ipc/activity.js';
import type { CancelResult } from '../../shared/ipc/money-results.js';
import { ActivityLog } from '../../electron/services/activity/activity-log.js';
import { OwnDataService } from '../../electron/services/own-data/own-data-service.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX, JORDAN, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

let app: FastApp;
let dataDir: string;
let active: CapacityPolicy[];

const statedFees = async (): Promise<StatedFees> => value<StatedFees>(await app.call('activity.statedFees', undefined));
const signIn = async (user = ALEX) => value(await app.call('session.signIn', { profileId: 'sandbox', username: user.username, password: user.password }));

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-stated-fees-'));
  app = await startFastApp({ secrets: new FixedSecretStore(), dataDir });
  await signIn();
  active = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'ACTIVE', limit: 100 })).rows;
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('activity.statedFees', () => {
  it('reads back each cancel’s fee as the service stated it, survives a re-sync, and is the signed-in user’s only', async () => {
    expect(await statedFees()).toEqual([]);
    const [first, second] = active;
    if (!first || !second) throw new Error('the seed has fewer than two active policies');
    const cancels = [];
    for (const policy of [first, second]) cancels.push({ cidrId: policy.cidrId, fee: value<CancelResult>(await app.call('capacity.cancel', { cidrId: policy.cidrId })).fee });
    expect(cancels.every(({ fee }) => typeof fee === 'number')).toBe(true);
    // A refused second cancel states no fee and leaves the first one standing.
    expect((await app.call('capacity.cancel', { cidrId: first.cidrId })).ok).toBe(false);

    const read = await statedFees();
    expect(read.map(({ cidrId, fee }) => ({ cidrId, fee })).sort((a, b) => a.cidrId.localeCompare(b.cidrId))).toEqual(
      cancels.sort((a, b) => a.cidrId.localeCompare(b.cidrId)),
    );
    for (const { at } of read) expect(Date.now() - Date.parse(at)).toBeLessThan(60_000);

    value(await app.call('offline.sync'));
    expect(await statedFees()).toEqual(read);

    await signIn(JORDAN);
    expect(await statedFees()).toEqual([]);
    await signIn(ALEX);
    expect(await statedFees()).toEqual(read);
  }, 60_000);

  it('keeps the latest fee of a policy, and hostile ids as plain data', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-stated-fees-ids-'));
    const owner = { profileId: 'sandbox', username: 'fees@example.com' };
    const ownData = new OwnDataService({ dataDir: dir, secrets: new FixedSecretStore(), owner: () => owner });
    let clock = Date.parse('2026-11-02T10:00:00Z');
    const log = new ActivityLog({
      ownData,
      session: { status: () => ({ signedIn: true, ...owner, keychain: { kind: 'keychain' as const } }) },
      now: () => new Date((clock += 1_000)),
    });
    const cancel = { policyKind: 'capacity' as const, action: 'cancel' as const };
    try {
      await log.record(log.owner(), { ...cancel, cidrId: '__proto__' }, 'succeeded', { fee: 12.5 });
      await log.record(log.owner(), { ...cancel, cidrId: 'constructor' }, 'succeeded', { fee: 1 });
      await log.record(log.owner(), { ...cancel, cidrId: 'constructor' }, 'succeeded', { fee: 2 });
      await log.record(log.owner(), { ...cancel, cidrId: 'sc_9' }, 'not-done', { reason: { kind: 'rejected', message: 'no' } });
      await log.record(log.owner(), { ...cancel, cidrId: 'sc_8' }, 'unknown');
      await log.record(log.owner(), { policyKind: 'cyber', action: 'terminate', cidrId: 'sc_7' }, 'succeeded', { eventId: 3 });
      const fees = await log.statedFees();
      expect(fees.map(({ cidrId, fee }) => [cidrId, fee]).sort()).toEqual([
        ['__proto__', 12.5],
        ['constructor', 2],
      ]);
      expect(Object.getPrototypeOf(fees[0])).toBe(Object.prototype);
    } finally {
      await ownData.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
