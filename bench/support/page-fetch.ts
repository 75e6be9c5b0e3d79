import type { Pool } from 'undici';
import { SYNC_PAGE_SIZE } from '../../electron/services/bulk/capacity-sync.js';
import { QUERY } from '../../shared/api/contract-choices.js';
import { ENDPOINTS } from '../../shared/api/endpoints.js';

/** The list pages a full sync reads, oldest first. */
export function pagePaths(pages: number): string[] {
  return Array.from(
    { length: pages },
    (_, i) => `${ENDPOINTS.listCapacities.path}?${QUERY.page}=${i + 1}&${QUERY.pageSize}=${SYNC_PAGE_SIZE}&${QUERY.sortOrder}=asc`,
  );
}

/**
 * Every page requested by `connections` loops at once, each answer's body read
 * as text and handed to `use`. With `use` a no-op this is a raw load generator;
 * with JSON.parse, the most any client could do over the same link.
 */
export async function fetchEveryPage(pool: Pool, token: string, paths: readonly string[], connections: number, use: (text: string) => void): Promise<void> {
  let next = 0;
  const loop = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      const { statusCode, body } = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${token}` } });
      const text = await body.text();
      if (statusCode !== 200) throw new Error(`load generator got ${statusCode}`);
      use(text);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
}
