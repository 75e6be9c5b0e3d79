import { describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { SessionStatus } from '../../../shared/ipc/session.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { ApiClient } from '../../../electron/services/api-client/api-client.js';
import { OverviewService } from '../../../electron/services/overview/overview-service.js';
import { countTurns } from '../../support/event-loop-turns.js';

type Query = { page: number; pageSize: number; sortOrder: string };

/** A session whose client serves `total` ACTIVE policies, counting what it is asked. */
function fakeSession(total: number, options: { failPage?: number; unreadableOnPage?: number } = {}) {
  const asked: Query[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const policy = (i: number) =>
    ({
      cidrId: `sc_${i}`,
      policyStatus: 'ACTIVE',
      policyInstance: { instanceType: 'm5.large' },
      capacityConfiguration: {
        launchDateTime: '2026-01-01T00:00:00+00:00',
        endDateTime: '2026-01-31T00:00:00+00:00',
        autoRenewalEnabled: true,
      },
      pricing: { savings: 1 },
    }) as unknown as CapacityPolicy;
  const client = {
    read: async (_name: string, { query }: { query: Query }) => {
      asked.push(query);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      if (query.page === options.failPage) throw new AppFailure({ kind: 'server', message: 'boom', status: 500 });
      const start = (query.page - 1) * query.pageSize;
      const skipped = query.page === options.unreadableOnPage ? [{ index: 3, problems: ['cidrId is missing'] }] : [];
      return { data: Array.from({ length: Math.max(0, Math.min(query.pageSize, total - start)) }, (_, i) => policy(start + i)), total, skipped };
    },
  } as unknown as ApiClient;
  const status: SessionStatus = { signedIn: true, profileId: 'sandbox', username: 'a', keychain: { kind: 'memory' } };
  return {
    asked,
    get maxInFlight() {
      return maxInFlight;
    },
    session: { status: () => status, authorized: <T>(work: (c: ApiClient, t: string) => Promise<T>) => work(client, 'token') },
  };
}

describe('OverviewService', () => {
  it('counts the policies it could not read, positioned in the whole list, and sums the rest', async () => {
    const fake = fakeSession(250, { unreadableOnPage: 2 });
    const service = new OverviewService({ session: fake.session, now: () => new Date('2026-01-10T00:00:00Z') });
    const summary = await service.summary();
    expect(summary.skippedCount).toBe(1);
    expect(summary.skipped).toEqual([{ index: 103, problems: ['cidrId is missing'] }]);
    expect(summary.totalPolicies).toBe(250);
  });

  it('reads every page, 100 at a time, at most 4 at once, oldest first, and sums them all', async () => {
    const fake = fakeSession(1234);
    const service = new OverviewService({ session: fake.session, now: () => new Date('2026-01-10T00:00:00Z') });
    const summary = await service.summary();
    expect(summary.totalPolicies).toBe(1234);
    expect(summary.monthlySavings.total).toBe(1234);
    expect(fake.asked.map((q) => q.page).sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(new Set(fake.asked.map((q) => `${q.pageSize}/${q.sortOrder}`))).toEqual(new Set(['100/asc']));
    expect(fake.maxInFlight).toBeLessThanOrEqual(4);
    expect(fake.maxInFlight).toBeGreaterThan(1);
  });

  it('sums a long list in time slices: the event loop turns while it counts', async () => {
    // 60,000 policies: well past one slice of counting (8 ms) on any machine (one piece was ~1.5 s at 100,000 under load).
    const fake = fakeSession(60_000);
    let counting = false;
    const turns = countTurns(() => counting);
    const service = new OverviewService({
      session: fake.session,
      pageSize: 5_000,
      // Asked once every page is in, as the counting starts.
      now: () => {
        counting = true;
        return new Date('2026-01-10T00:00:00Z');
      },
    });
    try {
      const summary = await service.summary();
      expect(summary.totalPolicies).toBe(60_000);
      expect(summary.monthlySavings.runningPolicies).toBe(60_000);
    } finally {
      counting = false;
      turns.stop();
    }
    expect(turns.turns()).toBeGreaterThan(0);
    // How long it takes is not what it checks: past the unit default of 5 s at load 30.
  }, 60_000);

  it('lets callers at the same time share one computation, and starts afresh after it', async () => {
    const fake = fakeSession(250);
    const service = new OverviewService({ session: fake.session });
    const [a, b] = await Promise.all([service.summary(), service.summary()]);
    expect(a).toBe(b);
    expect(fake.asked).toHaveLength(3);
    await service.summary();
    expect(fake.asked).toHaveLength(6);
  });

  it('shares no computation begun before the app changed a policy: the caller after the change gets its own count', async () => {
    const fake = fakeSession(250);
    const service = new OverviewService({ session: fake.session });
    const underWay = service.summary();
    service.changed();
    const after = service.summary();
    expect(after).not.toBe(underWay);
    expect((await underWay).totalPolicies).toBe(250);
    expect((await after).totalPolicies).toBe(250);
    expect(fake.asked).toHaveLength(6);
  });

  it('fails as the page failed, and the next call tries again', async () => {
    const fake = fakeSession(250, { failPage: 2 });
    const service = new OverviewService({ session: fake.session });
    await expect(service.summary()).rejects.toMatchObject({ error: { kind: 'server' } });
    await expect(service.summary()).rejects.toBeInstanceOf(AppFailure);
  });
});
