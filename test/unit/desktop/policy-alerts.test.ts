import { describe, expect, it } from 'vitest';
import { describeWhen, dueAlerts, notificationsFor, type PolicyDates } from '../../../electron/services/desktop/policy-alerts.js';

const now = new Date('2026-03-02T09:00:00Z');
const hours = (n: number) => new Date(now.getTime() + n * 3_600_000).toISOString();

const policy = (over: Partial<PolicyDates>): PolicyDates => ({
  cidrId: 'CIDR-1',
  policyName: 'Batch nodes',
  policyStatus: 'ACTIVE',
  launchDateTime: hours(-500),
  endDateTime: hours(500),
  ...over,
});

describe('due policy alerts', () => {
  it('alerts a launch within 24 hours and an end within 3 days, not later ones', () => {
    const alerts = dueAlerts(
      [
        policy({ cidrId: 'A', launchDateTime: hours(23.9) }),
        policy({ cidrId: 'B', launchDateTime: hours(24.1) }),
        policy({ cidrId: 'C', endDateTime: hours(71) }),
        policy({ cidrId: 'D', endDateTime: hours(73) }),
      ],
      now,
      new Set(),
    );
    expect(alerts.map((alert) => `${alert.kind}:${alert.cidrId}`)).toEqual(['launching:A', 'ending:C']);
  });

  it('ignores past dates, unreadable dates and finished policies', () => {
    const alerts = dueAlerts(
      [
        policy({ cidrId: 'past', endDateTime: hours(-1) }),
        policy({ cidrId: 'junk', endDateTime: 'soon' }),
        policy({ cidrId: 'cancelled', policyStatus: 'CANCELED', endDateTime: hours(5) }),
        policy({ cidrId: 'expired', policyStatus: 'expired', launchDateTime: hours(5) }),
      ],
      now,
      new Set(),
    );
    expect(alerts).toEqual([]);
  });

  it('skips alerts already sent, but a rescheduled date is a new alert', () => {
    const first = dueAlerts([policy({ endDateTime: hours(10) })], now, new Set());
    expect(first).toHaveLength(1);
    const sent = new Set(first.map((alert) => alert.key));
    expect(dueAlerts([policy({ endDateTime: hours(10) })], now, sent)).toEqual([]);
    expect(dueAlerts([policy({ endDateTime: hours(12) })], now, sent)).toHaveLength(1);
  });

  it('compares instants, whatever offset the service wrote them in', () => {
    const alerts = dueAlerts([policy({ launchDateTime: '2026-03-03T10:30:00+02:00' })], now, new Set());
    expect(alerts.map((alert) => alert.at.toISOString())).toEqual(['2026-03-03T08:30:00.000Z']);
  });

  it('puts the soonest first', () => {
    const alerts = dueAlerts([policy({ cidrId: 'late', endDateTime: hours(60) }), policy({ cidrId: 'early', launchDateTime: hours(2) })], now, new Set());
    expect(alerts.map((alert) => alert.cidrId)).toEqual(['early', 'late']);
  });
});

describe('notification content', () => {
  it('one notification per alert, opening the policy', () => {
    const alerts = dueAlerts([policy({ cidrId: 'CIDR-7', policyName: 'GPU pool', launchDateTime: hours(5.5) })], now, new Set());
    expect(notificationsFor(alerts, now)).toEqual([
      {
        title: 'Launching soon: GPU pool',
        body: 'CIDR-7 launches in 5 hours.',
        command: { kind: 'open-policy', cidrId: 'CIDR-7' },
        keys: [alerts[0]!.key],
      },
    ]);
  });

  it('more than three alerts become one summary that opens the list', () => {
    const alerts = dueAlerts(
      [
        policy({ cidrId: 'A', launchDateTime: hours(1) }),
        policy({ cidrId: 'B', launchDateTime: hours(2) }),
        policy({ cidrId: 'C', endDateTime: hours(3) }),
        policy({ cidrId: 'D', endDateTime: hours(50) }),
        policy({ cidrId: 'E', endDateTime: hours(70) }),
      ],
      now,
      new Set(),
    );
    const [summary, ...rest] = notificationsFor(alerts, now);
    expect(rest).toEqual([]);
    expect(summary).toMatchObject({
      title: '5 capacity policies need attention',
      body: '2 policies launch within 24 hours; 3 policies end within 3 days.',
      command: { kind: 'go', view: 'capacity-list' },
    });
    expect(summary!.keys).toHaveLength(5);
  });

  it('says when in words, rounding down and never saying "in 0"', () => {
    expect(describeWhen(new Date(now.getTime() + 20_000), now)).toBe('in 1 minute');
    expect(describeWhen(new Date(now.getTime() + 59 * 60_000), now)).toBe('in 59 minutes');
    expect(describeWhen(new Date(now.getTime() + 60 * 60_000), now)).toBe('in 1 hour');
    expect(describeWhen(new Date(now.getTime() + 47.9 * 3_600_000), now)).toBe('in 47 hours');
    expect(describeWhen(new Date(now.getTime() + 71 * 3_600_000), now)).toBe('in 2 days');
  });
});
