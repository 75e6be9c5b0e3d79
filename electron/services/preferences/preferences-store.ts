import { join } from 'node:path';
import { z } from 'zod';
import { OfflineRefreshMinutes, Preferences, ReminderLeadDays, type PreferencesPatch } from '../../../shared/ipc/desktop.js';
import { readJsonFile, writeFileAtomic, type UnreadableReporter } from '../settings/json-file.js';

export const PREFERENCES_FILE = 'preferences.json';

/** What a new install starts with: updates on, notifications opt-in (off). */
export const DEFAULT_PREFERENCES: Preferences = Object.freeze({ autoUpdate: true, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] });

/** The file as this version writes it; a field it does not have yet (an older file) takes its default. */
const StoredPreferences = z.object({
  version: z.literal(1),
  autoUpdate: z.boolean().default(DEFAULT_PREFERENCES.autoUpdate),
  notifyPolicyDates: z.boolean().default(DEFAULT_PREFERENCES.notifyPolicyDates),
  offlineRefreshMinutes: OfflineRefreshMinutes.default(DEFAULT_PREFERENCES.offlineRefreshMinutes),
  reminderLeadDays: ReminderLeadDays.default(DEFAULT_PREFERENCES.reminderLeadDays),
});

/**
 * A file the schema refuses (hand-edited, written by a newer version) is kept
 * aside, and each field that is still good is used, so one bad value never
 * resets the others.
 */
const SalvagedPreferences = z.object({
  version: z.literal(1).catch(1),
  autoUpdate: z.boolean().catch(DEFAULT_PREFERENCES.autoUpdate),
  notifyPolicyDates: z.boolean().catch(DEFAULT_PREFERENCES.notifyPolicyDates),
  offlineRefreshMinutes: OfflineRefreshMinutes.catch(DEFAULT_PREFERENCES.offlineRefreshMinutes),
  reminderLeadDays: ReminderLeadDays.catch(DEFAULT_PREFERENCES.reminderLeadDays),
});

export type PreferencesListener = (preferences: Preferences) => void;

/** The desktop preferences, in their own file in the data folder, written atomically. */
export class PreferencesStore {
  readonly path: string;
  #current: Preferences = DEFAULT_PREFERENCES;
  #writes: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<PreferencesListener>();

  constructor(
    dataDir: string,
    private readonly onUnreadable?: UnreadableReporter,
  ) {
    this.path = join(dataDir, PREFERENCES_FILE);
  }

  async load(): Promise<Preferences> {
    const stored = await readJsonFile(this.path, StoredPreferences, { version: 1, ...DEFAULT_PREFERENCES }, {
      onUnreadable: this.onUnreadable,
      salvage: SalvagedPreferences,
    });
    this.#current = Preferences.parse(stored);
    return this.#current;
  }

  get current(): Preferences {
    return this.#current;
  }

  /** Applies a validated patch; writes are serialised so quick changes never interleave on disk. */
  async update(patch: PreferencesPatch): Promise<Preferences> {
    const next = Preferences.parse({ ...this.#current, ...definedOnly(patch) });
    const changed = JSON.stringify(next) !== JSON.stringify(this.#current);
    this.#current = next;
    const snapshot = JSON.stringify({ version: 1, ...next }, null, 2);
    // A failed write must not wedge every later one.
    const write = this.#writes.catch(() => undefined).then(() => writeFileAtomic(this.path, snapshot));
    this.#writes = write;
    await write;
    if (changed) for (const listener of this.#listeners) listener(next);
    return next;
  }

  subscribe(listener: PreferencesListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

function definedOnly(patch: PreferencesPatch): Partial<Preferences> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}
