import type { CapacityRow } from '../../../shared/api/readers.js';
import { PAGING } from '../../../shared/api/contract-choices.js';
import type { Authorized } from '../bulk/capacity-sync.js';
import { fetchAllPages } from '../bulk/fetch-all-pages.js';
import type { PolicyDates } from './policy-alerts.js';

/**
 * A background look at the user's active capacity policies for the date
 * notifications: gentle (two requests at a time) and bounded, so a very large
 * book never turns a reminder into a bulk download; the offline sync exists
 * for that.
 */
export const NOTIFY_MAX_PAGES = 20;

export function activeCapacityDates(session: Authorized, maxPages: number = NOTIFY_MAX_PAGES): () => Promise<PolicyDates[]> {
  return async () => {
    const policies = await fetchAllPages<CapacityRow>({
      pageSize: PAGING.maxPageSize,
      concurrency: 2,
      idOf: (row) => row.cidrId,
      fetchPage: async (page, pageSize, signal) => {
        const answer = await session.authorized((client, token) =>
          client.read('listCapacities', { token, signal, query: { page, pageSize, status: 'ACTIVE' } }),
        );
        // Reporting a smaller total is how the page count is capped.
        return { data: answer.data, total: Math.min(answer.total, maxPages * pageSize) };
      },
    });
    // A reminder needs the dates: a policy whose answer lacks them is not announced (never on a guess).
    return policies.flatMap((policy) => {
      const launchDateTime = policy.capacityConfiguration?.launchDateTime;
      const endDateTime = policy.capacityConfiguration?.endDateTime;
      if (!launchDateTime || !endDateTime) return [];
      return [{ cidrId: policy.cidrId, policyName: policy.policyName ?? policy.cidrId, policyStatus: policy.policyStatus ?? 'ACTIVE', launchDateTime, endDateTime }];
    });
  };
}
