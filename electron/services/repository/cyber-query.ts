import type { CyberListInput } from '../../../shared/api/cyber.js';
import type { CyberListItem } from '../../../shared/api/cyber.js';
import { PAGING } from '../../../shared/api/contract-choices.js';

/**
 * A page of a customer's DR policies from the replica, filtered, sorted and
 * paged as the service does it (status, name contains, creation order), so the
 * same view reads the same whether the answer is local or live.
 */
export function queryCyberItems(items: readonly CyberListItem[], input: CyberListInput) {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? PAGING.defaultPageSize;
  const needle = input.policyName?.trim().toLowerCase() ?? '';
  const matching = items.filter(
    (item) => (!input.status || item.policyStatus === input.status) && (!needle || item.policyName.toLowerCase().includes(needle)),
  );
  const direction = (input.sortOrder ?? PAGING.defaultSortOrder) === 'asc' ? 1 : -1;
  const sorted = [...matching].sort((a, b) => direction * (Date.parse(a.createdDate) - Date.parse(b.createdDate)) || a.cidrId.localeCompare(b.cidrId));
  return { data: sorted.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: matching.length, skipped: [] };
}
