import type { AppCommand } from '../../../shared/ipc/desktop.js';
import { visibleText } from '../../../shared/format/visible-text.js';

/** What the alerts need of a capacity policy. */
export interface PolicyDates {
  readonly cidrId: string;
  readonly policyName: string;
  readonly policyStatus: string;
  /** ISO 8601 instants with offsets, as the API gives them. */
  readonly launchDateTime: string;
  readonly endDateTime: string;
}

export type AlertKind = 'launching' | 'ending';

export interface PolicyAlert {
  /** Once per policy, kind and date: a rescheduled date is a new alert. */
  readonly key: string;
  readonly kind: AlertKind;
  readonly cidrId: string;
  readonly policyName: string;
  readonly at: Date;
}

/** How far ahead "soon" looks: a launch the next day, an end within three days (time to renew). */
export const ALERT_HORIZON_HOURS: Readonly<Record<AlertKind, number>> = { launching: 24, ending: 72 };

/** Policies in these states neither launch nor end any more. */
const FINISHED_STATUSES = new Set(['CANCELED', 'EXPIRED', 'FAILED', 'COMPLETED']);

const HOUR_MS = 3_600_000;

/** The alerts due now that were not sent before, soonest first. */
export function dueAlerts(
  policies: readonly PolicyDates[],
  now: Date,
  alreadySent: ReadonlySet<string>,
  horizonHours: Readonly<Record<AlertKind, number>> = ALERT_HORIZON_HOURS,
): PolicyAlert[] {
  const alerts: PolicyAlert[] = [];
  for (const policy of policies) {
    if (FINISHED_STATUSES.has(policy.policyStatus.toUpperCase())) continue;
    const candidates: Array<[AlertKind, string]> = [
      ['launching', policy.launchDateTime],
      ['ending', policy.endDateTime],
    ];
    for (const [kind, text] of candidates) {
      const at = new Date(text);
      if (Number.isNaN(at.getTime())) continue;
      const ahead = at.getTime() - now.getTime();
      if (ahead <= 0 || ahead > horizonHours[kind] * HOUR_MS) continue;
      const key = `${kind}:${policy.cidrId}:${at.toISOString()}`;
      if (alreadySent.has(key)) continue;
      alerts.push({ key, kind, cidrId: policy.cidrId, policyName: policy.policyName, at });
    }
  }
  return alerts.sort((a, b) => a.at.getTime() - b.at.getTime() || a.cidrId.localeCompare(b.cidrId));
}

export interface NotificationContent {
  readonly title: string;
  readonly body: string;
  /** What a click on the notification opens. */
  readonly command: AppCommand;
  /** The alerts this notification covers (to record them as sent). */
  readonly keys: readonly string[];
}

/** Up to this many alerts get a notification each; more are summed up in one. */
export const MAX_SEPARATE_NOTIFICATIONS = 3;

export function notificationsFor(alerts: readonly PolicyAlert[], now: Date): NotificationContent[] {
  if (alerts.length === 0) return [];
  if (alerts.length <= MAX_SEPARATE_NOTIFICATIONS) {
    return alerts.map((alert) => ({
      // The OS shows this outside the app: the service's name with its bidi and zero-width controls made visible.
      title: alert.kind === 'launching' ? `Launching soon: ${visibleText(alert.policyName)}` : `Ending soon: ${visibleText(alert.policyName)}`,
      body: `${alert.cidrId} ${alert.kind === 'launching' ? 'launches' : 'ends'} ${describeWhen(alert.at, now)}.`,
      command: { kind: 'open-policy', cidrId: alert.cidrId },
      keys: [alert.key],
    }));
  }
  const launching = alerts.filter((alert) => alert.kind === 'launching').length;
  const ending = alerts.length - launching;
  const parts = [
    launching > 0 ? `${plural(launching, 'policy launches', 'policies launch')} within ${ALERT_HORIZON_HOURS.launching} hours` : '',
    ending > 0 ? `${plural(ending, 'policy ends', 'policies end')} within ${ALERT_HORIZON_HOURS.ending / 24} days` : '',
  ].filter(Boolean);
  return [
    {
      title: `${alerts.length} capacity policies need attention`,
      body: `${parts.join('; ')}.`,
      command: { kind: 'go', view: 'capacity-list' },
      keys: alerts.map((alert) => alert.key),
    },
  ];
}

/** "in 40 minutes", "in 5 hours", "in 2 days": rounded down, never "in 0". */
export function describeWhen(at: Date, now: Date): string {
  const minutes = Math.max(1, Math.floor((at.getTime() - now.getTime()) / 60_000));
  if (minutes < 60) return `in ${plural(minutes, 'minute', 'minutes')}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${plural(hours, 'hour', 'hours')}`;
  return `in ${plural(Math.floor(hours / 24), 'day', 'days')}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
