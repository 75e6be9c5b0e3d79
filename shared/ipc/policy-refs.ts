import { z } from 'zod';

/** The ids the window names policies and DR customers by, checked before they reach a channel. */

/** Names one policy (capacity or cyber) for the single-policy channels. */
export const PolicyRef = z.object({
  cidrId: z
    .string()
    .trim()
    .min(1, { error: 'Enter a policy id' })
    .max(64, { error: 'A policy id is at most 64 characters' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'A policy id has only letters, digits, _ and -' }),
});
export type PolicyRef = z.infer<typeof PolicyRef>;

export const CustomerId = z
  .string()
  .trim()
  .min(1, { error: 'Enter a customer id' })
  .max(64, { error: 'A customer id is at most 64 characters' })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'A customer id has only letters, digits, _, . and -' });
