import type { AppError, Result } from '../../shared/ipc/result.js';
import type { SourcedCyberPage } from '../../shared/ipc/sourced.js';

/** The active DR policies of one DR id counted over its pages; `complete` false when the bound cut the reading short. */
export interface DrActiveCount {
  readonly active: number;
  readonly complete: boolean;
}

/** Pages of a DR list read to count it (100 each): 2,000 policies, beyond any one customer id seen; more says "at least". */
export const DR_COUNT_MAX_PAGES = 20;

/**
 * Counts the active policies of a DR list longer than its first page by reading its further pages, one at a time,
 * the way the page read the first (live when the service answers, else the copy's kept list; each live page is
 * written through, so the copy then keeps the whole list for the next offline count). Ids seen twice (a policy
 * added while the pages were read moves the others down one) count once. A page that fails fails the count.
 */
export async function countActiveDr(
  first: Pick<SourcedCyberPage, 'data' | 'total'> & Partial<Pick<SourcedCyberPage, 'origin' | 'keptListPartial'>>,
  readPage: (page: number) => Promise<Result<Pick<SourcedCyberPage, 'data'> & Partial<Pick<SourcedCyberPage, 'origin' | 'keptListPartial'>>>>,
  pageSize: number,
  maxPages: number = DR_COUNT_MAX_PAGES,
): Promise<Result<DrActiveCount>> {
  const seen = new Map<string, string | undefined>();
  const add = (page: Pick<SourcedCyberPage, 'data'>) => {
    for (const item of page.data) seen.set(item.cidrId, item.policyStatus);
  };
  add(first);
  const pages = Math.ceil(first.total / pageSize);
  const last = Math.min(pages, maxPages);
  // Exact only when the pages are one list's: each from where the first came (a later page the copy answered, the
  // service gone meanwhile, is another moment's list: its kept items may end at the first page), and together as
  // many policies as the first page said the list holds (a policy gone between two reads moves one past them unseen).
  // A kept list that may lack some of the list's policies counts what it keeps: "at least" (issue 26).
  let oneList = !first.keptListPartial;
  for (let page = 2; page <= last; page++) {
    const answer = await readPage(page);
    if (!answer.ok) return failed(answer.error);
    if (!sameOrigin(first.origin, answer.value.origin) || answer.value.keptListPartial) oneList = false;
    add(answer.value);
    if (answer.value.data.length === 0) break;
  }
  let active = 0;
  for (const status of seen.values()) if (status === 'ACTIVE') active += 1;
  return { ok: true, value: { active, complete: pages <= maxPages && oneList && seen.size >= first.total } };
}

function failed(error: AppError): Result<DrActiveCount> {
  return { ok: false, error };
}

function sameOrigin(a: SourcedCyberPage['origin'] | undefined, b: SourcedCyberPage['origin'] | undefined): boolean {
  return a?.source === b?.source && Boolean(a?.serviceUnreachable) === Boolean(b?.serviceUnreachable);
}
