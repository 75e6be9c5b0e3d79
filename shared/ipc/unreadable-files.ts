import { z } from 'zod';

/**
 * A settings-like file the app found but could not read (written by a newer
 * version, damaged, hand-edited): moved aside untouched, never written over,
 * and shown to the person so they know their settings are not lost.
 */
export const UnreadableFile = z.object({
  /** Where the file was (its usual place in the data folder). */
  file: z.string(),
  /** Where it is now, untouched; null when it could not be moved (then it is left in place and not written over). */
  keptAs: z.string().nullable(),
  /** Why it could not be read, in plain words. */
  reason: z.string(),
  /** When it was found (ISO 8601). */
  at: z.iso.datetime(),
});
export type UnreadableFile = z.infer<typeof UnreadableFile>;
