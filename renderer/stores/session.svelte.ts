import type { AppError } from '../../shared/ipc/result.js';
import type { NetworkStatus } from '../../shared/ipc/network.js';
import type { Profile, ProfileInput } from '../../shared/ipc/profiles.js';
import type { SessionExpiring, SessionStatus, SignInInput, DemoAccount } from '../../shared/ipc/session.js';
import { api } from '../lib/api.js';
import { askSession, type SessionCalls } from '../lib/session-calls.js';
import { scopeOf, sessionScope } from '../lib/session-scope.js';

/** A session that ended while the app was in use: the same person is asked for the password again. */
export interface Reauth {
  readonly profileId: string;
  readonly username: string;
  readonly reason: 'expired' | 'rejected';
}

/** The signed-in state and the profiles, as the main process reports them. */
class SessionStore {
  status = $state<SessionStatus | null>(null);
  profiles = $state<Profile[]>([]);
  /** The built-in sandbox's demo accounts, by name, for its sign-in screen. */
  demoAccounts = $state<DemoAccount[]>([]);
  loadError = $state<AppError | null>(null);
  /** Set while the re-sign-in dialog is up; the current view stays mounted underneath. */
  reauth = $state<Reauth | null>(null);
  /** The latest expiry warning of the live session. */
  expiring = $state<SessionExpiring | null>(null);
  /**
   * Goes up each time a session is resumed by signing in again; a view whose
   * calls failed while signed out can re-run them by reading it in an effect.
   */
  resumed = $state(0);

  readonly signedIn = $derived(this.status?.signedIn === true);
  /** The app (not the sign-in view) is shown: signed in, or waiting for the password again. */
  readonly showsApp = $derived(this.signedIn || this.reauth !== null);

  /**
   * The status, the profiles and the demo accounts, asked at once and set together (the sign-in view reads the
   * profiles as it mounts). `onStatus` hears the status alone as soon as it is answered: the window's first screen
   * is asked on it (issue 25), not after the profiles' and demo accounts' answers too. `asked`: the three calls
   * already made (main.ts makes them before the app's code is evaluated).
   */
  async load(onStatus?: (status: SessionStatus | null) => void, asked: SessionCalls = askSession()): Promise<void> {
    if (onStatus) void asked.status.then((answer) => onStatus(answer.ok ? answer.value : null));
    const [status, profiles, demo] = await Promise.all([asked.status, asked.profiles, asked.demoAccounts]);
    if (status.ok) this.#setStatus(status.value);
    else this.loadError = status.error;
    if (profiles.ok) this.profiles = profiles.value;
    else this.loadError = profiles.error;
    // Without them the sign-in screen simply offers none.
    if (demo.ok) this.demoAccounts = demo.value;
  }

  /** Signs in to the built-in sandbox as one of its demo accounts (the main process holds the password). */
  async signInDemo(username: string): Promise<AppError | null> {
    const result = await api.session.signInDemo({ username });
    if (!result.ok) return result.error;
    this.#apply(result.value);
    void this.reloadProfiles();
    return null;
  }

  async reloadProfiles(): Promise<AppError | null> {
    const result = await api.profiles.list();
    if (!result.ok) return result.error;
    this.profiles = result.value;
    return null;
  }

  /** Returns the error for the form to show; null on success. */
  async signIn(input: SignInInput): Promise<AppError | null> {
    const result = await api.session.signIn(input);
    if (!result.ok) return result.error;
    this.#apply(result.value);
    void this.reloadProfiles();
    return null;
  }

  /** Signs the same person in again, from the re-sign-in dialog. */
  async reauthenticate(password: string): Promise<AppError | null> {
    const pending = this.reauth;
    if (!pending) return null;
    const error = await this.signIn({ profileId: pending.profileId, username: pending.username, password });
    if (!error) this.resumed += 1;
    return error;
  }

  async signOut(): Promise<void> {
    const result = await api.session.signOut();
    if (result.ok) this.#apply(result.value);
    // Signing out is the way out of the re-sign-in dialog, even if the main process could not answer.
    this.reauth = null;
  }

  /** Saves a profile; the error carries the offending field. */
  async saveProfile(input: ProfileInput): Promise<{ profile: Profile } | { error: AppError }> {
    const result = await api.profiles.save(input);
    if (!result.ok) return { error: result.error };
    await this.reloadProfiles();
    return { profile: result.value };
  }

  async removeProfile(profileId: string): Promise<AppError | null> {
    const result = await api.profiles.remove({ profileId });
    if (!result.ok) return result.error;
    this.profiles = result.value;
    return null;
  }

  async networkStatus(): Promise<NetworkStatus | null> {
    const result = await api.network.status();
    return result.ok ? result.value : null;
  }

  /** Pushed by the main process: sign-in and out, a token that ended, the warning before it ends. */
  listen(): () => void {
    const offChanged = api.on('session.changed', (status) => this.#apply(status));
    const offExpiring = api.on('session.expiring', (warning) => {
      if (this.status?.signedIn && this.status.username === warning.username) this.expiring = warning;
    });
    return () => {
      offChanged();
      offExpiring();
    };
  }

  /** Every status goes through here, so each store learns when another user's session begins. */
  #setStatus(status: SessionStatus): void {
    sessionScope.use(scopeOf(status));
    this.status = status;
  }

  #apply(status: SessionStatus): void {
    const wasInApp = this.showsApp;
    this.#setStatus(status);
    if (status.signedIn) {
      this.reauth = null;
      if (this.expiring?.expiresAt !== status.expiresAt) this.expiring = null;
      return;
    }
    this.expiring = null;
    // Only a session that ended under the user's hands is resumed in place; at start, the sign-in view asks.
    this.reauth =
      wasInApp && status.endedBecause && status.username
        ? { profileId: status.profileId, username: status.username, reason: status.endedBecause }
        : null;
  }
}

export const session = new SessionStore();
