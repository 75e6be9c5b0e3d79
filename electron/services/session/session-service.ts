import { z } from 'zod';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { SessionStatus, SignInInput } from '../../../shared/ipc/models.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { AppEvents } from '../events.js';
import type { ProfileRegistry } from '../profiles/profile-registry.js';
import { keychainService, type SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';

/** What the keychain entry holds: the token and when it stops working. */
const StoredToken = z.object({ accessToken: z.string().min(1), expiresAt: z.iso.datetime() });
type StoredToken = z.infer<typeof StoredToken>;

interface ActiveSession {
  readonly profileId: string;
  readonly username: string;
  readonly token: StoredToken;
}

export interface SessionDeps {
  readonly secrets: SecretStore;
  readonly settings: SettingsStore;
  readonly profiles: ProfileRegistry;
  readonly events: AppEvents;
  readonly clientFor: (baseUrl: string) => ApiClient;
  readonly now?: () => Date;
}

/**
 * Signs in and out and holds the one live session. The token stays inside this
 * object and the keychain: callers get session facts, or run work through
 * `authorized`, never the token itself.
 */
export class SessionService {
  #active: ActiveSession | null = null;
  #endedBecause: SessionStatus['endedBecause'];
  readonly #now: () => Date;

  constructor(private readonly deps: SessionDeps) {
    this.#now = deps.now ?? (() => new Date());
  }

  status(): SessionStatus {
    const profileId = this.#active?.profileId ?? this.deps.settings.current.activeProfileId;
    const base = { profileId, keychain: this.deps.secrets.status };
    if (!this.#active) return { ...base, signedIn: false, ...(this.#endedBecause ? { endedBecause: this.#endedBecause } : {}) };
    return { ...base, signedIn: true, username: this.#active.username, expiresAt: this.#active.token.expiresAt };
  }

  /** Restores a still-valid session from the keychain at start. */
  async restore(): Promise<SessionStatus> {
    const { activeProfileId, lastUsernames } = this.deps.settings.current;
    const username = lastUsernames[activeProfileId];
    if (!username || !this.deps.profiles.find(activeProfileId)) return this.status();
    const stored = await this.#readToken(activeProfileId, username);
    if (stored && Date.parse(stored.expiresAt) > this.#now().getTime()) {
      this.#active = { profileId: activeProfileId, username, token: stored };
    }
    return this.status();
  }

  async signIn(input: SignInInput): Promise<SessionStatus> {
    const profile = this.deps.profiles.find(input.profileId);
    if (!profile) {
      throw new AppFailure({ kind: 'validation', field: 'profileId', message: 'That profile no longer exists. Choose another.' });
    }
    const client = this.deps.clientFor(profile.baseUrl);
    const answer = await client.call('signIn', { body: { username: input.username, password: input.password } });
    const token: StoredToken = {
      accessToken: answer.access_token,
      expiresAt: new Date(this.#now().getTime() + answer.expires_in * 1000).toISOString(),
    };
    if (this.#active) await this.#forget(this.#active);
    await this.deps.secrets.set(keychainService(profile.id), input.username, JSON.stringify(token));
    this.#active = { profileId: profile.id, username: input.username, token };
    this.#endedBecause = undefined;
    await this.deps.settings.update((s) => ({
      ...s,
      activeProfileId: profile.id,
      lastUsernames: { ...s.lastUsernames, [profile.id]: input.username },
    }));
    const status = this.status();
    this.deps.events.emit('session.changed', status);
    return status;
  }

  async signOut(): Promise<SessionStatus> {
    if (this.#active) await this.#forget(this.#active);
    this.#active = null;
    this.#endedBecause = undefined;
    const status = this.status();
    this.deps.events.emit('session.changed', status);
    return status;
  }

  /**
   * Runs a call with the session's token. A 401 ends the session and tells the
   * renderer, which asks for the password again without leaving its screen.
   */
  async authorized<T>(work: (client: ApiClient, token: string) => Promise<T>): Promise<T> {
    const active = this.#active;
    if (!active) throw new AppFailure({ kind: 'unauthorized', message: 'You are signed out. Sign in to continue.' });
    if (Date.parse(active.token.expiresAt) <= this.#now().getTime()) {
      this.#end(active, 'expired');
      throw new AppFailure({ kind: 'unauthorized', message: 'Your session has expired. Sign in again to continue.' });
    }
    const profile = this.deps.profiles.find(active.profileId);
    if (!profile) throw new AppFailure({ kind: 'unauthorized', message: 'The profile of this session no longer exists.' });
    try {
      return await work(this.deps.clientFor(profile.baseUrl), active.token.accessToken);
    } catch (error) {
      if (error instanceof AppFailure && error.error.kind === 'unauthorized' && this.#active === active) {
        this.#end(active, 'rejected');
        throw new AppFailure({ ...error.error, message: 'Your session is no longer valid. Sign in again to continue.' });
      }
      throw error;
    }
  }

  #end(session: ActiveSession, reason: 'expired' | 'rejected'): void {
    this.#active = null;
    // The token is useless now; a failed delete only leaves a dead entry behind.
    this.#forget(session).catch(() => undefined);
    this.#endedBecause = reason;
    this.deps.events.emit('session.changed', this.status());
  }

  async #forget(session: ActiveSession): Promise<void> {
    await this.deps.secrets.delete(keychainService(session.profileId), session.username);
  }

  async #readToken(profileId: string, username: string): Promise<StoredToken | null> {
    try {
      const text = await this.deps.secrets.get(keychainService(profileId), username);
      if (!text) return null;
      const parsed = StoredToken.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
