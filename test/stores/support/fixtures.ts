import type { AppError } from '../../../shared/ipc/result.js';
import type { OfferingsRead } from '../../../shared/api/readers.js';
import type { Profile } from '../../../shared/ipc/profiles.js';
import { UNKNOWN_TERMS } from '../../../shared/money/agreement-terms.js';
import type { CapacityWindow, Origin, SourcedCapacityDetail, SourcedCyberDetail, SourcedCyberPage, SourcedOverview } from '../../../shared/ipc/sourced.js';

export const SERVICE_NOW: Origin = { source: 'service', fetchedAt: '2026-11-23T03:00:00.000Z' };
export const FROM_COPY: Origin = { source: 'replica', fetchedAt: '2026-11-22T03:00:00.000Z', serviceUnreachable: true };

export const UNREACHABLE: AppError = { kind: 'offline', message: 'The service did not answer' };

/** An overview with `total` policies and nothing else, from `origin`. */
export function overviewOf(total: number, origin: Origin = SERVICE_NOW): SourcedOverview {
  const none = { total: 0, byStatus: [] };
  return {
    asOf: '2026-11-23T03:00:00.000Z',
    windowDays: 30,
    totalPolicies: total,
    byStatus: [],
    launching: none,
    ending: none,
    endingWithoutRenewal: { total: 0, soonest: [] },
    monthlySavings: { total: 0, runningPolicies: 0, launchingLater: 0, monthlyLaunching: 0, monthDays: 30, byFamily: [] },
    timeline: [],
    upcoming: [],
    skippedCount: 0,
    skipped: [],
    origin,
  };
}

/** A describe answer naming the policy, as the detail views read it. */
export function capacityDetailOf(cidrId: string, policyName: string, origin: Origin = SERVICE_NOW): SourcedCapacityDetail {
  return { cidrId, extra: {}, policyDetails: { cidrId, policyName, policyStatus: 'ACTIVE', policyOperatingState: 'RUNNING', cspAccountName: 'acct' }, origin };
}

export function cyberDetailOf(cidrId: string, origin: Origin = SERVICE_NOW): SourcedCyberDetail {
  return { cidrId, extra: {}, origin };
}

/** A capacity-list window of policies with these ids, of `total` in all. */
export function windowOf(ids: readonly string[], total: number, origin: Origin = SERVICE_NOW): CapacityWindow {
  return { rows: ids.map((cidrId) => ({ cidrId, policyName: `Policy ${cidrId}` })), offset: 0, total, origin, local: true, skipped: [] };
}

export function offeringsOf(titles: readonly string[]): OfferingsRead {
  return { items: titles.map((title) => ({ title })), skipped: [] };
}

/** A page of DR policies with these ids, of `total` in all. */
export function cyberPageOf(ids: readonly string[], total: number, origin: Origin = SERVICE_NOW): SourcedCyberPage {
  return { data: ids.map((cidrId) => ({ cidrId })), page: 1, pageSize: 10, total, skipped: [], origin };
}

/** A profile that remembers these customers, most recent first. */
export function profileOf(id: string, lastCustomerIds: string[]): Profile {
  return { id, name: id, baseUrl: 'http://127.0.0.1:1', builtIn: true, lastCustomerIds, terms: UNKNOWN_TERMS };
}
