import { z } from 'zod';
import { PAGING, RULE, SORT_ORDERS } from './contract-choices.js';
import { SortOrder } from './sort-order.js';

/** The `data, page, pageSize, total` envelope shared by both paginated lists. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int().min(0),
  });
}

export { SortOrder } from './sort-order.js';

/**
 * Query values arrive as text: these parse the text form and carry the rule
 * text that a 400 description states after the parameter name.
 */
const integerText = (rule: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: rule })
    .transform(Number)
    .pipe(z.number().int({ error: rule }).min(min, { error: rule }).max(max, { error: rule }));

export const PageParam = integerText(RULE.page, 1, Number.MAX_SAFE_INTEGER).default(PAGING.defaultPage);
export const PageSizeParam = integerText(RULE.pageSize, 1, PAGING.maxPageSize).default(PAGING.defaultPageSize);
export const SortOrderParam = z.enum(SORT_ORDERS, { error: RULE.sortOrder }).default(PAGING.defaultSortOrder);

/** Paging as the client's callers give it (numbers, all optional). */
export const PagingInput = z.object({
  page: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(1).max(PAGING.maxPageSize).optional(),
  sortOrder: SortOrder.optional(),
});
export type PagingInput = z.infer<typeof PagingInput>;
