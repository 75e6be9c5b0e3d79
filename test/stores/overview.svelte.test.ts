import { hold, nth, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { overview } from '../../renderer/stores/overview.svelte.js';
import { FROM_COPY, UNREACHABLE, overviewOf } from './support/fixtures.js';

let runs = 0;
beforeEach(() => {
  resetFakeApi();
  runs += 1;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
});

describe('the overview store', () => {
  it('shows the figures with their source, keeps them while updating, and keeps them on a failure', async () => {
    const reads = hold('overview.summary');
    const first = overview.load();
    expect(overview.loading).toBe(true);
    nth(reads, 0).ok(overviewOf(4, FROM_COPY));
    await first;
    expect(overview.summary?.totalPolicies).toBe(4);
    expect(overview.figures.source).toBe('replica');

    const second = overview.load();
    expect(overview.summary?.totalPolicies).toBe(4);
    nth(reads, 1).fail(UNREACHABLE);
    await second;
    expect(overview.error).toEqual(UNREACHABLE);
    expect(overview.summary?.totalPolicies).toBe(4);
    expect(overview.loading).toBe(false);
  });

  it('drops an older answer that arrives after a newer one (two refreshes)', async () => {
    const reads = hold('overview.summary');
    const older = overview.load();
    const newer = overview.load();
    nth(reads, 1).ok(overviewOf(2));
    await newer;
    nth(reads, 0).ok(overviewOf(1));
    await older;
    expect(overview.summary?.totalPolicies).toBe(2);
  });

  it("drops the figures and the read under way when another user signs in", async () => {
    const reads = hold('overview.summary');
    const mine = overview.load();
    nth(reads, 0).ok(overviewOf(7));
    await mine;
    const late = overview.load();
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    expect(overview.summary).toBeNull();
    nth(reads, 1).ok(overviewOf(7));
    await late;
    expect(overview.summary).toBeNull();
    expect(overview.loading).toBe(false);
  });

  it('keeps the figures through a sign-out for the same user', async () => {
    const reads = hold('overview.summary');
    const mine = overview.load();
    nth(reads, 0).ok(overviewOf(5));
    await mine;
    sessionScope.use(null);
    sessionScope.use(`sandbox\u0000alex-${runs}`);
    expect(overview.summary?.totalPolicies).toBe(5);
  });
});
