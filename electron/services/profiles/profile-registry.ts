import type { Profile } from '../../../shared/ipc/models.js';
import type { SettingsStore } from '../settings/settings-store.js';

export const SANDBOX_PROFILE_ID = 'sandbox';

/** The built-in Sandbox profile plus the user's own environments. */
export class ProfileRegistry {
  constructor(
    private readonly settings: SettingsStore,
    private readonly sandboxUrl: () => string,
  ) {}

  list(): Profile[] {
    const { profiles, lastUsernames } = this.settings.current;
    const sandbox: Profile = {
      id: SANDBOX_PROFILE_ID,
      name: 'Sandbox',
      baseUrl: this.sandboxUrl(),
      builtIn: true,
      ...(lastUsernames[SANDBOX_PROFILE_ID] ? { lastUsername: lastUsernames[SANDBOX_PROFILE_ID] } : {}),
    };
    const own = profiles.map((p): Profile => {
      const lastUsername = lastUsernames[p.id] ?? p.lastUsername;
      return { id: p.id, name: p.name, baseUrl: p.baseUrl, builtIn: false, ...(lastUsername ? { lastUsername } : {}) };
    });
    return [sandbox, ...own];
  }

  find(id: string): Profile | undefined {
    return this.list().find((profile) => profile.id === id);
  }
}
