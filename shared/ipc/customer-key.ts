import { z } from 'zod';

/**
 * How the rest of the contract names a customer of the book (kept apart from
 * customers.ts, which reads the own-data shapes, so the offline query can
 * name a customer without an import cycle).
 */

/** The book's own key of a customer, made by the main process; never a name, so renaming keeps every link. */
export const CustomerKey = z.string().regex(/^cu_[a-z0-9]{8,40}$/, { error: 'Not a customer of the book' });
export type CustomerKey = z.infer<typeof CustomerKey>;

/** Either a customer of the book, or the policies whose account belongs to none. */
export const UNASSIGNED = 'unassigned' as const;
export const CustomerFilter = z.union([CustomerKey, z.literal(UNASSIGNED)]);
export type CustomerFilter = z.infer<typeof CustomerFilter>;
