import { calls, hold, nth, resetFakeApi } from './support/fake-api.js';
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

  describe('asked as the window starts (issue 25)', () => {
    const me = () => `sandbox\u0000alex-${runs}`;
    const asked = () => calls.filter((call) => call.channel === 'overview.summary').length;

    it('asks once the status says who is signed in, before any view, and the first load shows that answer', async () => {
      const reads = hold('overview.summary');
      overview.askEarly(Promise.resolve(me()));
      await Promise.resolve();
      await Promise.resolve();
      expect(asked()).toBe(1);
      nth(reads, 0).ok(overviewOf(9));
      await overview.load();
      expect(asked()).toBe(1);
      expect(overview.summary?.totalPolicies).toBe(9);
      // Taken once: the next load (Refresh) asks again.
      const again = overview.load();
      await Promise.resolve();
      await Promise.resolve();
      expect(asked()).toBe(2);
      nth(reads, 1).ok(overviewOf(10));
      await again;
      expect(overview.summary?.totalPolicies).toBe(10);
    });

    it('asks nothing while signed out, and the load after the sign-in asks for itself', async () => {
      const reads = hold('overview.summary');
      overview.askEarly(Promise.resolve(null));
      const load = overview.load();
      await Promise.resolve();
      await Promise.resolve();
      expect(asked()).toBe(1);
      nth(reads, 0).ok(overviewOf(3));
      await load;
      expect(overview.summary?.totalPolicies).toBe(3);
    });

    it("never shows the answer asked for one user to another who signed in before the view loaded", async () => {
      const reads = hold('overview.summary');
      overview.askEarly(Promise.resolve(me()));
      await Promise.resolve();
      sessionScope.use(`sandbox\u0000jordan-${runs}`);
      const load = overview.load();
      await Promise.resolve();
      await Promise.resolve();
      expect(asked()).toBe(2);
      nth(reads, 0).ok(overviewOf(7));
      nth(reads, 1).ok(overviewOf(2));
      await load;
      expect(overview.summary?.totalPolicies).toBe(2);
    });
  });
});
