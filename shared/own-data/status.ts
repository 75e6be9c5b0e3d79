import { z } from 'zod';
import { UnreadableReason } from '../ipc/offline.js';

/**
 * What happened when the own-data file of this owner could not be read: the
 * file is kept aside (never deleted), and its last good state, when one was
 * kept, is what is served now.
 */
export const OwnDataRecovery = z.object({
  reason: UnreadableReason,
  /** The name the unreadable file was kept aside under, in the owner's own-data folder. */
  keptAs: z.string(),
  /** When the last good state restored was written; null when none could be read (the own data starts empty). */
  restoredFrom: z.iso.datetime().nullable(),
  detectedAt: z.iso.datetime(),
});
export type OwnDataRecovery = z.infer<typeof OwnDataRecovery>;

export const OwnDataStatus = z.object({
  /** False when neither the keychain nor the OS's encryption can keep its key: held in memory for this run only. */
  persistent: z.boolean(),
  /** Why it is not kept, in plain words. */
  reason: z.string().optional(),
  /** Set when the file was found unreadable in this run and restored (or started afresh). */
  recovered: OwnDataRecovery.optional(),
});
export type OwnDataStatus = z.infer<typeof OwnDataStatus>;
