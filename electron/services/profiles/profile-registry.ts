import { baseUrlProblem, MAX_REMEMBERED_CUSTOMERS, type Profile } from '../../../shared/ipc/profiles.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import { SANDBOX_TERMS, UNKNOWN_TERMS, type AgreementTerms } from '../../../shared/money/agreement-terms.js';
import { dictionary, ownEntry, withEntry, withoutEntry } from '../../../shared/records.js';
import { ownerFolder, type Owner } from '../platform/owner.js';
import type { SettingsStore, StoredProfile } from '../settings/settings-store.js';

export const SANDBOX_PROFILE_ID = 'sandbox';
export const SANDBOX_PROFILE_NAME = 'Sandbox';

/** A profile as the registry stores it; the base URL is already validated (ProfileInput). */
export interface ProfileDraft {
  readonly id?: string | undefined;
  readonly name: string;
  readonly baseUrl: string;
  /** Absent: kept as they are. */
  readonly terms?: AgreementTerms | undefined;
}

/**
 * The built-in Sandbox profile (always first) plus the user's own environments,
 * kept in the settings file. Ids are stable: the keychain entry of a session is
 * named after its profile id, so renaming or moving a profile keeps it.
 */
export class ProfileRegistry {
  constructor(
    private readonly settings: SettingsStore,
    private readonly sandboxUrl: () => string,
    /** Who is signed in (or working offline) now: the recent customer ids shown are that person's alone. */
    private readonly currentOwner: () => Owner | null = () => null,
  ) {}

  list(): Profile[] {
    const { profiles, lastUsernames } = this.settings.current;
    const owner = this.currentOwner();
    const recentFor = (profileId: string) => (owner && owner.profileId === profileId ? this.recentCustomerIds(owner) : []);
    const sandboxUsername = ownEntry(lastUsernames, SANDBOX_PROFILE_ID);
    const sandbox: Profile = {
      id: SANDBOX_PROFILE_ID,
      name: SANDBOX_PROFILE_NAME,
      baseUrl: this.sandboxUrl(),
      builtIn: true,
      ...(sandboxUsername ? { lastUsername: sandboxUsername } : {}),
      lastCustomerIds: recentFor(SANDBOX_PROFILE_ID),
      terms: SANDBOX_TERMS,
    };
    const own = profiles.map((p): Profile => {
      const lastUsername = ownEntry(lastUsernames, p.id) ?? p.lastUsername;
      // The settings file may have been written by hand: the editor's rule applies to what it holds too.
      const unusable = baseUrlProblem(p.baseUrl);
      return {
        id: p.id,
        name: p.name,
        baseUrl: p.baseUrl,
        builtIn: false,
        ...(lastUsername ? { lastUsername } : {}),
        lastCustomerIds: recentFor(p.id),
        ...(unusable ? { unusable } : {}),
        terms: p.terms ?? UNKNOWN_TERMS,
      };
    });
    return [sandbox, ...own];
  }

  find(id: string): Profile | undefined {
    return this.list().find((profile) => profile.id === id);
  }

  /** Creates (no id) or updates a profile of the user's; the Sandbox cannot be changed. */
  async save(draft: ProfileDraft): Promise<Profile> {
    const { profiles } = this.settings.current;
    if (draft.id === SANDBOX_PROFILE_ID) {
      throw new AppFailure({ kind: 'invalid-input', field: 'name', message: 'The built-in Sandbox profile cannot be changed.' });
    }
    if (draft.id !== undefined && !profiles.some((p) => p.id === draft.id)) {
      throw new AppFailure({ kind: 'not-found', message: 'That profile no longer exists.' });
    }
    const clash = this.list().find((p) => p.id !== draft.id && p.name.toLocaleLowerCase() === draft.name.toLocaleLowerCase());
    if (clash) throw new AppFailure({ kind: 'invalid-input', field: 'name', message: `A profile named “${clash.name}” already exists.` });

    const id = draft.id ?? uniqueId(draft.name, new Set([SANDBOX_PROFILE_ID, ...profiles.map((p) => p.id)]));
    const terms = draft.terms ?? profiles.find((p) => p.id === id)?.terms;
    const stored: StoredProfile = { id, name: draft.name, baseUrl: draft.baseUrl, ...(terms ? { terms } : {}) };
    await this.settings.update((s) => ({
      ...s,
      profiles: draft.id === undefined ? [...s.profiles, stored] : s.profiles.map((p) => (p.id === id ? { ...p, ...stored } : p)),
    }));
    return this.find(id) as Profile;
  }

  /** Removes a profile of the user's and everything remembered for it. */
  async remove(id: string): Promise<Profile[]> {
    if (id === SANDBOX_PROFILE_ID) throw new AppFailure({ kind: 'invalid-input', message: 'The built-in Sandbox profile cannot be removed.' });
    if (!this.settings.current.profiles.some((p) => p.id === id)) {
      throw new AppFailure({ kind: 'not-found', message: 'That profile no longer exists.' });
    }
    await this.settings.update((s) => ({
      ...s,
      activeProfileId: s.activeProfileId === id ? SANDBOX_PROFILE_ID : s.activeProfileId,
      profiles: s.profiles.filter((p) => p.id !== id),
      lastUsernames: withoutEntry(s.lastUsernames, id),
      lastCustomerIds: withoutEntry(s.lastCustomerIds, id),
      recentCustomerIds: dictionary(Object.entries(s.recentCustomerIds).filter(([, recent]) => recent.profileId !== id)),
    }));
    return this.list();
  }

  /** The customer ids one owner used last, most recent first. */
  recentCustomerIds(owner: Owner): string[] {
    return ownEntry(this.settings.current.recentCustomerIds, ownerFolder(owner))?.ids ?? [];
  }

  /**
   * Puts a customer id first in the recent list of the person signed in to (or working offline in) the profile.
   * Another user of the same environment never sees it; with nobody in the profile there is no one to remember for.
   */
  async rememberCustomer(profileId: string, customerId: string): Promise<Profile> {
    if (!this.find(profileId)) throw new AppFailure({ kind: 'not-found', message: 'That profile no longer exists.' });
    const owner = this.currentOwner();
    if (!owner || owner.profileId !== profileId) {
      throw new AppFailure({ kind: 'conflict', message: 'Sign in to this environment to remember a customer for it.' });
    }
    const key = ownerFolder(owner);
    await this.settings.update((s) => {
      const previous = ownEntry(s.recentCustomerIds, key)?.ids ?? [];
      const ids = [customerId, ...previous.filter((id) => id !== customerId)].slice(0, MAX_REMEMBERED_CUSTOMERS);
      return { ...s, recentCustomerIds: withEntry(s.recentCustomerIds, key, { profileId, ids }) };
    });
    return this.find(profileId) as Profile;
  }
}

/** A readable id (it shows in the keychain's service name), made unique with a counter. */
function uniqueId(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'profile';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}-${n}`;
  return candidate;
}
