import { join } from 'node:path';
import { z } from 'zod';
import { AppFailure } from '../../../shared/ipc/result.js';
import { AgreementTerms } from '../../../shared/money/agreement-terms.js';
import { dictionary, dictionaryOf } from '../../../shared/records.js';
import { readJsonFile, writeFileAtomic, type UnreadableReporter } from './json-file.js';

export const StoredProfile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.url(),
  lastUsername: z.string().optional(),
  terms: AgreementTerms.optional(),
});
export type StoredProfile = z.infer<typeof StoredProfile>;

export const RecentCustomerIds = z.object({ profileId: z.string(), ids: z.array(z.string()) });
export type RecentCustomerIds = z.infer<typeof RecentCustomerIds>;

/** Everything the app remembers between runs that is not secret. */
export const Settings = z.object({
  version: z.literal(1),
  activeProfileId: z.string().default('sandbox'),
  profiles: z.array(StoredProfile).default([]),
  /** Usernames last signed in per profile, to restore the session at start. */
  lastUsernames: dictionaryOf(z.string()).default(() => dictionary<string>()),
  /**
   * Profiles whose session may be restored at start, with the username. Sign-out
   * removes the entry, so a token the keychain could not delete (it failed
   * mid-run) is never restored. Absent in files older than this field: then
   * lastUsernames decides, as before.
   */
  restorable: dictionaryOf(z.string()).optional(),
  /**
   * Customer ids last used per profile, as versions before 0.1 kept them: one list for every user of the profile.
   * No longer read (the next user to sign in was offered the ids the last one used); removed with its profile.
   */
  lastCustomerIds: dictionaryOf(z.array(z.string())).default(() => dictionary<string[]>()),
  /**
   * Customer ids last used, most recent first, per owner (one user of one environment), keyed by the owner's folder
   * name (`ownerFolder`: a hash, so the settings file names no username) and noting the profile, so removing a
   * profile removes its users' lists.
   */
  recentCustomerIds: dictionaryOf(RecentCustomerIds).default(() => dictionary<RecentCustomerIds>()),
});
export type Settings = z.infer<typeof Settings>;

const defaults = (): Settings => Settings.parse({ version: 1 });

/**
 * The settings file, read once and written atomically on every change. A file
 * it cannot read (a newer version's, a damaged one) is kept aside, never
 * written over; if it cannot even be moved, nothing is written.
 */
export class SettingsStore {
  readonly path: string;
  #current: Settings = defaults();
  #writes: Promise<void> = Promise.resolve();
  #writable = true;

  constructor(
    dataDir: string,
    private readonly onUnreadable?: UnreadableReporter,
  ) {
    this.path = join(dataDir, 'settings.json');
  }

  async load(): Promise<Settings> {
    this.#current = await readJsonFile(this.path, Settings, defaults(), {
      onUnreadable: (event) => {
        if (event.keptAs === null) this.#writable = false;
        this.onUnreadable?.(event);
      },
    });
    return this.#current;
  }

  get current(): Settings {
    return this.#current;
  }

  /** Serialised so two quick changes never interleave on disk. */
  update(change: (settings: Settings) => Settings): Promise<void> {
    if (!this.#writable) {
      return Promise.reject(
        new AppFailure({ kind: 'conflict', message: `Settings cannot be saved: ${this.path} could not be read or moved aside, and is not written over.` }),
      );
    }
    this.#current = Settings.parse(change(structuredClone(this.#current)));
    const snapshot = JSON.stringify(this.#current, null, 2);
    this.#writes = this.#writes.then(() => writeFileAtomic(this.path, snapshot));
    return this.#writes;
  }
}
