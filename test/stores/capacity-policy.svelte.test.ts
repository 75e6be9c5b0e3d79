import { hold, nth, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { policyDetails } from '../../renderer/stores/capacity-policy.svelte.js';
import { FROM_COPY, UNREACHABLE, capacityDetailOf } from './support/fixtures.js';

let runs = 0;
let cidrId = '';
beforeEach(() => {
  resetFakeApi();
  runs += 1;
  cidrId = `sc_${runs}`;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
});

describe('the policy details store', () => {
  it('keeps one detail per policy, so going back shows the last answer at once', async () => {
    const reads = hold('capacity.describe');
    const detail = policyDetails.get(cidrId);
    const loading = detail.load();
    expect(detail.loading).toBe(true);
    expect(nth(reads, 0).input).toEqual({ cidrId });
    nth(reads, 0).ok(capacityDetailOf(cidrId, 'Training', FROM_COPY));
    await loading;
    expect(policyDetails.get(cidrId)).toBe(detail);
    expect(detail.view?.policyDetails?.policyName).toBe('Training');
    expect(detail.read.source).toBe('replica');
    expect(detail.loadedAt).not.toBeNull();
  });

  it('drops an older describe answer that arrives after a newer one', async () => {
    const reads = hold('capacity.describe');
    const detail = policyDetails.get(cidrId);
    const older = detail.load();
    const newer = detail.load();
    nth(reads, 1).ok(capacityDetailOf(cidrId, 'Renamed'));
    await newer;
    nth(reads, 0).ok(capacityDetailOf(cidrId, 'Old name'));
    await older;
    expect(detail.view?.policyDetails?.policyName).toBe('Renamed');
  });

  it('keeps what it showed when a refresh fails, and says why', async () => {
    const reads = hold('capacity.describe');
    const detail = policyDetails.get(cidrId);
    const first = detail.load();
    nth(reads, 0).ok(capacityDetailOf(cidrId, 'Training'));
    await first;
    const again = detail.load();
    nth(reads, 1).fail(UNREACHABLE);
    await again;
    expect(detail.error).toEqual(UNREACHABLE);
    expect(detail.view?.policyDetails?.policyName).toBe('Training');
    expect(detail.loading).toBe(false);
  });

  it("drops every cached detail, and the read under way, when another user signs in", async () => {
    const reads = hold('capacity.describe');
    const mine = policyDetails.get(cidrId);
    const first = mine.load();
    nth(reads, 0).ok(capacityDetailOf(cidrId, 'Alex policy'));
    await first;
    const late = mine.load();
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    nth(reads, 1).ok(capacityDetailOf(cidrId, 'Alex policy'));
    await late;
    expect(mine.view).toBeNull();
    const theirs = policyDetails.get(cidrId);
    expect(theirs).not.toBe(mine);
    expect(theirs.view).toBeNull();
  });

  it('keeps the details through an expired session for the same user', async () => {
    const reads = hold('capacity.describe');
    const mine = policyDetails.get(cidrId);
    const first = mine.load();
    nth(reads, 0).ok(capacityDetailOf(cidrId, 'Alex policy'));
    await first;
    sessionScope.use(null);
    sessionScope.use(`sandbox\u0000alex-${runs}`);
    expect(policyDetails.get(cidrId).view?.policyDetails?.policyName).toBe('Alex policy');
  });
});
