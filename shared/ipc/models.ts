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
