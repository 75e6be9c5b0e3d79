import { z } from 'zod';
import { SORT_ORDERS } from './contract-choices.js';

/**
 * The sort order, in a module of its own (re-exported by paging.ts): the capacity list's kept state reads it, and
 * importing paging.ts for it made the query parameters' schemas as the page's first code was evaluated (issue 25,
 * branch overview16).
 */
export const SortOrder = z.enum(SORT_ORDERS);
export type SortOrder = z.infer<typeof SortOrder>;
