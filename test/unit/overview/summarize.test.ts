import { describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import { CAPACITY_STATUSES } from '../../../shared/api/contract-choices.js';
import { OverviewSummary } from '../../../shared/ipc/overview.js';
import fc from 'fast-check';
import type { PolicyMilestone } from '../../../shared/ipc/overview.js';
import { SoonestFirst, bySoonest, instanceFamily, monthlySavingsOf, summarizeCapacities } from '../../../electron/services/overview/summarize.js';

const DAY = 86_400_000;
const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

let nextId = 1;
function policy(overrides: {
  status?: string;
  launchIn: number;
  endIn: number;
  savings?: number;
  type?: string;
  renews?: boolean;
}): CapacityPolicy {
  const id = nextId++;
  return {
    cidrId: `sc_${id}`,
    policyName: `Policy ${id}`,
    cspAccountName: 'acct',
    policyStatus: overrides.status ?? 'ACTIVE',
    policyOperatingState: 'RUNNING',
    policyInstance: {
      id,
      instanceType: overrides.type ?? 'm5.large',
      platformCode: 'Linux/UNIX',
      tenancyCode: 'DEDICATED',
      vcpu: 2,
      memory: 8,
      gpu: 0,
      gpuMemory: 0,
      qty: 1,
    },
    cspRegion: { regionCode: 'us-east-1', regionType: 'PRIMARY', availabilityZoneId: 'use1-az1' },
    createdDate: at(-100),
    capacityConfiguration: {
      launchDateTime: at(overrides.launchIn),
      endDateTime: at(overrides.endIn),
      autoRenewalEnabled: overrides.renews ?? false,
      frequency: overrides.renews ? 'ONE_WEEK' : null,
      vpc: 'default',
      securityGroups: 'none',
      amiImage: 'default',
      sshPairKey: 'none',
      ebsVolumeSize: 10,
    },
    pricing: {
      ourPrice: 100,
      cspProviderPrice: 100 + (overrides.savings ?? 0),
      savings: overrides.savings ?? 0,
      savingsPercentage: 0,
      creditCardProcessingFee: null,
      bankAccountProcessingFee: null,
    },
  };
}

describe('instanceFamily', () => {
  it('is the part of the type before the dot', () => {
    expect(instanceFamily('m5.2xlarge')).toBe('m5');
    expect(instanceFamily('G4dn.xlarge')).toBe('g4dn');
    expect(instanceFamily('custom')).toBe('custom');
    expect(instanceFamily('')).toBe('other');
  });
});

describe('monthlySavingsOf', () => {
  it('spreads savings over the window and counts 30 days of it', () => {
    expect(monthlySavingsOf(policy({ launchIn: 0, endIn: 90, savings: 900 }))).toBeCloseTo(300, 9);
    expect(monthlySavingsOf(policy({ launchIn: -200, endIn: 165, savings: 365 }))).toBeCloseTo(30, 9);
  });

  it('never counts more than the whole savings of a policy shorter than a month', () => {
    expect(monthlySavingsOf(policy({ launchIn: 0, endIn: 7, savings: 70 }))).toBe(70);
    expect(monthlySavingsOf(policy({ launchIn: 5, endIn: 5, savings: 12 }))).toBe(12);
  });
});

describe('summarizeCapacities', () => {
  it('gives zero counts for every known status on an empty list', () => {
    const summary = summarizeCapacities([], NOW);
    expect(OverviewSummary.parse(summary)).toEqual(summary);
    expect(summary.byStatus).toEqual(CAPACITY_STATUSES.map((status) => ({ status, count: 0 })));
    expect(summary.totalPolicies).toBe(0);
    expect(summary.timeline).toHaveLength(30);
    expect(summary.monthlySavings).toEqual({ total: 0, runningPolicies: 0, launchingLater: 0, monthlyLaunching: 0, monthDays: 30, byFamily: [] });
    expect(summary.asOf).toBe(NOW.toISOString());
  });

  it('counts statuses, keeping an unknown one after the known ones', () => {
    const summary = summarizeCapacities(
      [
        policy({ status: 'ACTIVE', launchIn: -10, endIn: 100 }),
        policy({ status: 'ACTIVE', launchIn: -10, endIn: 100 }),
        policy({ status: 'FAILED', launchIn: -10, endIn: 100 }),
        policy({ status: 'PAUSED', launchIn: -10, endIn: 100 }),
      ],
      NOW,
    );
    expect(summary.totalPolicies).toBe(4);
    expect(summary.byStatus.find((s) => s.status === 'ACTIVE')?.count).toBe(2);
    expect(summary.byStatus.find((s) => s.status === 'FAILED')?.count).toBe(1);
    expect(summary.byStatus.at(-1)).toEqual({ status: 'PAUSED', count: 1 });
  });

  it('counts launches and ends inside [now, now + 30 days) of live policies only', () => {
    const policies = [
      policy({ status: 'ACTIVE', launchIn: 0, endIn: 60 }), // launch exactly now: in
      policy({ status: 'READY_FOR_PURCHASE', launchIn: 29.99, endIn: 40 }), // launch just inside
      policy({ status: 'READY_FOR_PURCHASE', launchIn: 30, endIn: 40 }), // launch exactly at the edge: out
      policy({ status: 'ACTIVE', launchIn: -50, endIn: 10 }), // ends inside
      policy({ status: 'ACTIVE', launchIn: -50, endIn: -0.001 }), // ended just before now: out
      policy({ status: 'CANCELED', launchIn: 3, endIn: 9 }), // not live: out
      policy({ status: 'EXPIRED', launchIn: 2, endIn: 5 }), // not live: out
    ];
    const summary = summarizeCapacities(policies, NOW);
    expect(summary.launching).toEqual({
      total: 2,
      byStatus: [
        { status: 'ACTIVE', count: 1 },
        { status: 'READY_FOR_PURCHASE', count: 1 },
      ],
    });
    expect(summary.ending).toEqual({ total: 1, byStatus: [{ status: 'ACTIVE', count: 1 }] });
    expect(summary.timeline[0]).toEqual({ day: 0, launches: 1, ends: 0 });
    expect(summary.timeline[29]).toEqual({ day: 29, launches: 1, ends: 0 });
    expect(summary.timeline[10]).toEqual({ day: 10, launches: 0, ends: 1 });
    const timelineTotal = summary.timeline.reduce((sum, d) => sum + d.launches + d.ends, 0);
    expect(timelineTotal).toBe(summary.launching.total + summary.ending.total);
    expect(summary.upcoming.map((m) => [m.cidrId, m.kind])).toEqual([
      [policies[0]!.cidrId, 'launch'],
      [policies[3]!.cidrId, 'end'],
      [policies[1]!.cidrId, 'launch'],
    ]);
  });

  it('lists ACTIVE policies without auto-renewal that end within the window, soonest first', () => {
    const late = policy({ status: 'ACTIVE', launchIn: -5, endIn: 20 });
    const soon = policy({ status: 'ACTIVE', launchIn: -5, endIn: 2 });
    const summary = summarizeCapacities(
      [
        late,
        soon,
        policy({ status: 'ACTIVE', launchIn: -5, endIn: 3, renews: true }),
        policy({ status: 'ACTIVE', launchIn: -5, endIn: 45 }),
        policy({ status: 'READY_FOR_PURCHASE', launchIn: 1, endIn: 8 }),
      ],
      NOW,
    );
    expect(summary.endingWithoutRenewal.total).toBe(2);
    expect(summary.endingWithoutRenewal.soonest.map((m) => m.cidrId)).toEqual([soon.cidrId, late.cidrId]);
  });

  it('sums monthly savings of ACTIVE policies by family, rounded to cents, the rest as "other"', () => {
    const policies = [
      policy({ status: 'ACTIVE', launchIn: -10, endIn: 80, savings: 300, type: 'm5.large' }), // 100 a month
      policy({ status: 'ACTIVE', launchIn: 0, endIn: 30, savings: 50.006, type: 'm5.xlarge' }), // 50.006
      policy({ status: 'ACTIVE', launchIn: 0, endIn: 60, savings: 20, type: 'c5.xlarge' }), // 10
      policy({ status: 'ACTIVE', launchIn: 0, endIn: 30, savings: 5, type: 'p3.2xlarge' }), // 5
      policy({ status: 'COMPLETED', launchIn: -60, endIn: -1, savings: 1000, type: 'r5.2xlarge' }), // not ACTIVE
    ];
    const summary = summarizeCapacities(policies, NOW, { familyLimit: 2 });
    expect(summary.monthlySavings.runningPolicies).toBe(4);
    expect(summary.monthlySavings.total).toBe(165.01);
    expect(summary.monthlySavings.byFamily).toEqual([
      { family: 'm5', monthly: 150.01, policies: 2 },
      { family: 'c5', monthly: 10, policies: 1 },
      { family: 'other', monthly: 5, policies: 1 },
    ]);
  });

  it('sums only the running active policies (the customer page\'s rule); those launching later are said apart, one past its end still runs (savings15)', () => {
    const policies = [
      policy({ status: 'ACTIVE', launchIn: -10, endIn: 80, savings: 300, type: 'm5.large' }), // running: 100 a month
      policy({ status: 'ACTIVE', launchIn: 0, endIn: 30, savings: 40, type: 'c5.large' }), // launches at "now": running, 40
      policy({ status: 'ACTIVE', launchIn: -40, endIn: -2, savings: 76, type: 'c5.large' }), // ACTIVE past its end: still running, 60
      policy({ status: 'ACTIVE', launchIn: 0.5, endIn: 60, savings: 119, type: 'm5.large' }), // launches later: 60 (119 * 30 / 59.5)
      policy({ status: 'ACTIVE', launchIn: 20, endIn: 50, savings: 25, type: 'p3.2xlarge' }), // launches later: 25
    ];
    const summary = summarizeCapacities(policies, NOW);
    expect(summary.monthlySavings).toEqual({
      total: 200,
      runningPolicies: 3,
      launchingLater: 2,
      monthlyLaunching: 85,
      monthDays: 30,
      byFamily: [
        { family: 'c5', monthly: 100, policies: 2 },
        { family: 'm5', monthly: 100, policies: 1 },
      ],
    });
    // A day on, the first of them runs: no list written, "now" alone moved it.
    const tomorrow = summarizeCapacities(policies, new Date(NOW.getTime() + DAY));
    expect(tomorrow.monthlySavings).toMatchObject({ total: 260, runningPolicies: 4, launchingLater: 1, monthlyLaunching: 25 });
  });

  it('keeps the lists short however many policies there are', () => {
    const many = Array.from({ length: 500 }, (_, i) => policy({ status: 'ACTIVE', launchIn: -1, endIn: 1 + (i % 28) }));
    const summary = summarizeCapacities(many, NOW);
    expect(summary.ending.total).toBe(500);
    expect(summary.endingWithoutRenewal.total).toBe(500);
    expect(summary.upcoming).toHaveLength(8);
    expect(summary.endingWithoutRenewal.soonest).toHaveLength(8);
    expect(JSON.stringify(summary).length).toBeLessThan(8_000);
  });
});

describe('summarizeCapacities with policies the service sent in part', () => {
  it('counts a policy without a status as UNKNOWN and claims nothing it was not told', () => {
    const summary = summarizeCapacities([{ cidrId: 'only-an-id' }, { cidrId: 'active', policyStatus: 'ACTIVE' }], new Date('2026-01-10T00:00:00Z'));
    expect(summary.totalPolicies).toBe(2);
    expect(summary.byStatus).toContainEqual({ status: 'UNKNOWN', count: 1 });
    expect(summary.monthlySavings.runningPolicies).toBe(1);
    expect(summary.monthlySavings.total).toBe(0);
    expect(summary.endingWithoutRenewal.total).toBe(0);
    expect(summary.upcoming).toEqual([]);
  });
});

describe('SoonestFirst (the listed milestones kept as they come, not all sorted at the end)', () => {
  it('lists what a stable sort by bySoonest cut to the limit lists, and counts every one added', () => {
    const milestone = fc.record({
      cidrId: fc.constantFrom('sc_1', 'sc_2', 'sc_3'),
      kind: fc.constantFrom<PolicyMilestone['kind']>('launch', 'end'),
      at: fc.integer({ min: 0, max: 5 }).map((day) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString()),
      policyStatus: fc.constantFrom('ACTIVE', 'READY_FOR_PURCHASE'),
      policyName: fc.string({ maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(milestone, { maxLength: 60 }), fc.integer({ min: 0, max: 10 }), (milestones, limit) => {
        const kept = new SoonestFirst(limit);
        for (const m of milestones) kept.add(m);
        expect(kept.list()).toEqual([...milestones].sort(bySoonest).slice(0, limit));
        expect(kept.count).toBe(milestones.length);
      }),
      { numRuns: 300 },
    );
  });
});
