import { z } from 'zod';

/** Shapes that exist only between the main process and the renderer. */

export const Profile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.string(),
  builtIn: z.boolean(),
  lastUsername: z.string().optional(),
});
export type Profile = z.infer<typeof Profile>;

export const KeychainStatus = z.object({
  /** `memory` means the session is not kept past this run. */
  kind: z.enum(['keychain', 'memory']),
  /** Why the OS keychain is not used, in plain words. */
  reason: z.string().optional(),
});
export type KeychainStatus = z.infer<typeof KeychainStatus>;

export const SessionStatus = z.object({
  signedIn: z.boolean(),
  profileId: z.string(),
  username: z.string().optional(),
  /** ISO 8601 instant the access token stops working. */
  expiresAt: z.string().optional(),
  /** Why the last session ended, when it did not end by signing out. */
  endedBecause: z.enum(['expired', 'rejected']).optional(),
  keychain: KeychainStatus,
});
export type SessionStatus = z.infer<typeof SessionStatus>;

export const SignInInput = z.object({
  profileId: z.string().min(1, { error: 'Choose a profile' }),
  username: z.string().trim().min(1, { error: 'Enter your username or e-mail' }).max(320),
  password: z.string().min(1, { error: 'Enter your password' }).max(1024),
});
export type SignInInput = z.infer<typeof SignInInput>;

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

export const CancelResult = z.object({
  message: z.string(),
  /** The early-cancellation fee read from the message; null when the message states none. */
  fee: z.number().nullable(),
});
export type CancelResult = z.infer<typeof CancelResult>;

export const TerminateResult = z.object({
  /** created: 201, a new termination event; already-triggered: 200, one existed. */
  outcome: z.enum(['created', 'already-triggered']),
  eventId: z.number().int().nullable(),
  message: z.string(),
});
export type TerminateResult = z.infer<typeof TerminateResult>;
