import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from './json-file.js';

export const StoredProfile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.url(),
  lastUsername: z.string().optional(),
});
export type StoredProfile = z.infer<typeof StoredProfile>;

/** Everything the app remembers between runs that is not secret. */
export const Settings = z.object({
  version: z.literal(1),
  activeProfileId: z.string().default('sandbox'),
  profiles: z.array(StoredProfile).default([]),
  /** Usernames last signed in per profile, to restore the session at start. */
  lastUsernames: z.record(z.string(), z.string()).default({}),
  /** Customer ids last used per profile, most recent first (the Sandbox has no stored profile, so keyed apart). */
  lastCustomerIds: z.record(z.string(), z.array(z.string())).default({}),
});
export type Settings = z.infer<typeof Settings>;

const DEFAULTS: Settings = { version: 1, activeProfileId: 'sandbox', profiles: [], lastUsernames: {}, lastCustomerIds: {} };

/** The settings file, read once and written atomically on every change. */
export class SettingsStore {
  readonly path: string;
  #current: Settings = DEFAULTS;
  #writes: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.path = join(dataDir, 'settings.json');
  }

  async load(): Promise<Settings> {
    this.#current = await readJsonFile(this.path, Settings, DEFAULTS);
    return this.#current;
  }

  get current(): Settings {
    return this.#current;
  }

  /** Serialised so two quick changes never interleave on disk. */
  update(change: (settings: Settings) => Settings): Promise<void> {
    this.#current = Settings.parse(change(structuredClone(this.#current)));
    const snapshot = JSON.stringify(this.#current, null, 2);
    this.#writes = this.#writes.then(() => writeFileAtomic(this.path, snapshot));
    return this.#writes;
  }
}
