import { z } from 'zod';
import { ConfigValues } from './configure-form.js';
import { SearchDraft } from './search-form.js';

/**
 * Unsaved form input kept across a reload of the window (not across a
 * restart: it is the tab's session storage, gone with the window, never
 * written to disk). Written when the page goes away, read back once, and only
 * for the user whose input it was.
 */
const KEY = 'capacity-desk.drafts.v1';

export const KeptConfig = z.object({
  values: ConfigValues,
  base: ConfigValues,
  editing: z.boolean(),
  ebsText: z.string(),
});
export type KeptConfig = z.infer<typeof KeptConfig>;

export const KeptDrafts = z.object({
  /** Whose input it is (session-scope.ts). */
  scope: z.string(),
  search: SearchDraft,
  /** Per policy id; pairs rather than an object, so any id the service uses is an ordinary key. */
  configs: z.array(z.tuple([z.string(), KeptConfig])).max(200),
});
export type KeptDrafts = z.infer<typeof KeptDrafts>;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What the last page left, or null (none, another version's, or unreadable: then it is simply not offered). */
export function readKeptDrafts(storage: Store | undefined): KeptDrafts | null {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return null;
    const parsed = KeptDrafts.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function keepDrafts(storage: Store | undefined, drafts: KeptDrafts | null): void {
  try {
    if (drafts === null) storage?.removeItem(KEY);
    else storage?.setItem(KEY, JSON.stringify(drafts));
  } catch {
    // Storage full or refused: the input simply does not outlive this page, as before.
  }
}
