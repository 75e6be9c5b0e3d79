import { z } from 'zod';

/** Who is signed in, where the session is kept, signing in (the demo accounts too) and the warning before it expires. */

export const KeychainStatus = z.object({
  /**
   * Which store holds the session: the system keychain (keytar), else the OS's
   * encryption (Electron's safeStorage, in a 0600 file in the data folder),
   * else `memory`: not kept past this run.
   */
  kind: z.enum(['keychain', 'safe-storage', 'memory']),
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

/** A published demo account of the built-in sandbox, as the sign-in screen offers it: its password never leaves the main process. */
export const DemoAccount = z.object({ username: z.string(), displayName: z.string() });
export type DemoAccount = z.infer<typeof DemoAccount>;
export const DemoSignInInput = z.object({ username: z.string().trim().min(1).max(200) });

/** Pushed about five minutes before the access token stops working. */
export const SessionExpiring = z.object({
  profileId: z.string(),
  username: z.string(),
  expiresAt: z.string(),
  minutesLeft: z.number().int().min(0),
});
export type SessionExpiring = z.infer<typeof SessionExpiring>;
