import { z } from 'zod';
import { AppFailure } from '../../../shared/ipc/result.js';
import { ownEntry, withEntry, withoutEntry } from '../../../shared/records.js';
import type { SessionStatus, SignInInput } from '../../../shared/ipc/session.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { Redactor } from '../logging/redact.js';
import type { AppEvents } from '../events.js';
import type { ProfileRegistry } from '../profiles/profile-registry.js';
import { keychainService, type SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { ExpiryTimers, type Timers } from './expiry-timers.js';

/**
 * What the keychain entry holds: the token, when it stops working, and the base
 * URL of the service that issued it (entries written before it was kept have
 * none, and are not restored: where their token came from cannot be told).
 */
const StoredToken = z.object({ accessToken: z.string().min(1), expiresAt: z.iso.datetime(), baseUrl: z.string().optional() });
type StoredToken = z.infer<typeof StoredToken>;

interface ActiveSession {
  readonly profileId: string;
  readonly username: string;
  readonly token: StoredToken;
  /** The base URL that issued the token: the only one it is ever sent to. */
  readonly baseUrl: string;
}

/** Said when an environment's URL is no longer the one its session's token came from. */
const URL_CHANGED = "This environment's URL changed since you signed in, and its session belongs to the old one. Sign in again to continue.";

type EndReason = NonNullable<SessionStatus['endedBecause']>;

/** The session that ended on its own, so the renderer can ask the same user for the password again. */
interface EndedSession {
  readonly profileId: string;
  readonly username: string;
  readonly reason: EndReason;
}

export const EXPIRY_WARNING_MS = 5 * 60_000;

export interface SessionDeps {
  readonly secrets: SecretStore;
  readonly settings: SettingsStore;
  readonly profiles: ProfileRegistry;
  readonly events: AppEvents;
  readonly clientFor: (baseUrl: string) => ApiClient;
  readonly now?: () => Date;
  /** Tests drive time by hand; the app uses the real timers. */
  readonly timers?: Timers;
  /** How long before expiry the renderer is warned. */
  readonly expiryWarningMs?: number | undefined;
  /** The logs' redactor: the password of a sign-in is kept out of every log line while the sign-in runs. */
  readonly redactor?: Pick<Redactor, 'hold'>;
  /** Starts the built-in service (the Sandbox profile) when it is chosen; it does not run before. */
  readonly startBuiltIn?: () => Promise<void>;
}

/**
 * Signs in and out and holds the one live session. The token stays inside this
 * object and the keychain: callers get session facts, or run work through
 * `authorized`, never the token itself.
 */
export class SessionService {
  #active: ActiveSession | null = null;
  #ended: EndedSession | null = null;
  /** Sign-ins under way, by profile: their environment's URL must not change under them. */
  readonly #pendingSignIns = new Map<string, number>();
  /** Aborted by close: a sign-in waiting for its answer stops, and none stores a token or settings after it. */
  readonly #closing = new AbortController();
  /** Sign-ins under way: close waits for them (one may be writing the keychain or the settings). */
  readonly #signIns = new Set<Promise<unknown>>();
  readonly #now: () => Date;
  readonly #timers: ExpiryTimers;

  constructor(private readonly deps: SessionDeps) {
    this.#now = deps.now ?? (() => new Date());
    this.#timers = new ExpiryTimers({
      now: () => this.#now().getTime(),
      warningMs: deps.expiryWarningMs ?? EXPIRY_WARNING_MS,
      ...(deps.timers ? { timers: deps.timers } : {}),
    });
  }

  status(): SessionStatus {
    const keychain = this.deps.secrets.status;
    const active = this.#active;
    if (active) {
      return { signedIn: true, profileId: active.profileId, username: active.username, expiresAt: active.token.expiresAt, keychain };
    }
    const ended = this.#ended;
    if (ended) return { signedIn: false, profileId: ended.profileId, username: ended.username, endedBecause: ended.reason, keychain };
    return { signedIn: false, profileId: this.deps.settings.current.activeProfileId, keychain };
  }

  /** Restores a still-valid session from the keychain at start. */
  async restore(): Promise<SessionStatus> {
    const { activeProfileId, lastUsernames, restorable } = this.deps.settings.current;
    const username = ownEntry(restorable ?? lastUsernames, activeProfileId);
    const profile = this.deps.profiles.find(activeProfileId);
    // A token is never sent to an environment whose URL breaks the rule.
    if (!username || !profile || profile.unusable) return this.status();
    if (profile.builtIn) await this.deps.startBuiltIn?.();
    const stored = await this.#readToken(activeProfileId, username);
    // The built-in sandbox moves to a new port each run but is the same service; any other URL must be the one that issued the token.
    const sameService = profile !== undefined && (profile.builtIn || stored?.baseUrl === profile.baseUrl);
    if (stored && profile && sameService && Date.parse(stored.expiresAt) > this.#now().getTime()) {
      this.#begin({ profileId: activeProfileId, username, token: stored, baseUrl: profile.baseUrl });
    } else if (stored) {
      // An expired token, or one another URL issued, is of no use to anyone; do not leave it in the keychain.
      await this.forgetStoredToken(activeProfileId, username);
    }
    return this.status();
  }

  signIn(input: SignInInput): Promise<SessionStatus> {
    if (this.#closing.signal.aborted) return Promise.reject(new AppFailure({ kind: 'cancelled', message: 'Capacity Desk is closing.' }));
    const signingIn = this.#signIn(input);
    const settled = signingIn.catch(() => undefined).finally(() => this.#signIns.delete(settled));
    this.#signIns.add(settled);
    return signingIn;
  }

  async #signIn(input: SignInInput): Promise<SessionStatus> {
    if (this.deps.profiles.find(input.profileId)?.builtIn) await this.deps.startBuiltIn?.();
    // Found after the start: the built-in service's address is known once it runs.
    const profile = this.deps.profiles.find(input.profileId);
    if (!profile) {
      throw new AppFailure({ kind: 'invalid-input', field: 'profileId', message: 'That profile no longer exists. Choose another.' });
    }
    if (profile.unusable) {
      // Nothing is sent: the password would travel in clear text or to a host that is not the service.
      throw new AppFailure({
        kind: 'invalid-input',
        field: 'profileId',
        message: `This environment cannot be used: ${profile.unusable}. Change its URL under Manage environments.`,
      });
    }
    const baseUrl = profile.baseUrl;
    const release = this.deps.redactor?.hold(input.password);
    let answer;
    try {
      answer = await this.#whileSigningIn(profile.id, () =>
        this.deps.clientFor(baseUrl).call('signIn', { body: { username: input.username, password: input.password }, signal: this.#closing.signal }),
      );
    } finally {
      release?.();
    }
    // Answered as the app closed: the token is not kept, nor the settings written, after close.
    if (this.#closing.signal.aborted) throw new AppFailure({ kind: 'cancelled', message: 'Capacity Desk is closing.' });
    // The profile editor refuses URL changes while this was pending; a settings change that got past it still loses the token here.
    if (this.deps.profiles.find(profile.id)?.baseUrl !== baseUrl) {
      throw new AppFailure({ kind: 'conflict', field: 'baseUrl', message: "This environment's URL changed during the sign-in. Sign in again." });
    }
    const token: StoredToken = {
      accessToken: answer.access_token,
      expiresAt: new Date(this.#now().getTime() + answer.expires_in * 1000).toISOString(),
      baseUrl,
    };
    if (this.#active) await this.#forget(this.#active);
    await this.deps.secrets.set(keychainService(profile.id), input.username, JSON.stringify(token));
    this.#begin({ profileId: profile.id, username: input.username, token, baseUrl });
    await this.deps.settings.update((s) => ({
      ...s,
      activeProfileId: profile.id,
      lastUsernames: withEntry(s.lastUsernames, profile.id, input.username),
      restorable: withEntry(s.restorable ?? {}, profile.id, input.username),
    }));
    const status = this.status();
    this.deps.events.emit('session.changed', status);
    return status;
  }

  async signOut(): Promise<SessionStatus> {
    const active = this.#active;
    this.#active = null;
    this.#ended = null;
    this.#timers.clear();
    if (active) {
      // First the record a restart reads: it holds even when the keychain cannot delete the token now.
      await this.deps.settings.update((s) => ({ ...s, restorable: withoutEntry(s.restorable ?? {}, active.profileId) }));
      await this.#forget(active);
    }
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
    if (profile.baseUrl !== active.baseUrl && !profile.builtIn) {
      this.#end(active, 'rejected');
      throw new AppFailure({ kind: 'unauthorized', message: URL_CHANGED });
    }
    try {
      // The built-in sandbox is this app's own server, wherever it listens now.
      return await work(this.deps.clientFor(profile.builtIn ? profile.baseUrl : active.baseUrl), active.token.accessToken);
    } catch (error) {
      if (error instanceof AppFailure && error.error.kind === 'unauthorized') {
        if (this.#active === active) this.#end(active, 'rejected');
        throw new AppFailure({ ...error.error, message: 'Your session is no longer valid. Sign in again to continue.' });
      }
      throw error;
    }
  }

  /** True while a sign-in to the profile is waiting for the service's answer. */
  signInPending(profileId: string): boolean {
    return this.#pendingSignIns.has(profileId);
  }

  async #whileSigningIn<T>(profileId: string, work: () => Promise<T>): Promise<T> {
    this.#pendingSignIns.set(profileId, (this.#pendingSignIns.get(profileId) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (this.#pendingSignIns.get(profileId) ?? 1) - 1;
      if (left > 0) this.#pendingSignIns.set(profileId, left);
      else this.#pendingSignIns.delete(profileId);
    }
  }

  /** Deletes a stored token that no session is using (a removed profile, an expired entry). */
  async forgetStoredToken(profileId: string, username: string): Promise<void> {
    if (this.#active?.profileId === profileId && this.#active.username === username) return;
    await this.deps.secrets.delete(keychainService(profileId), username).catch(() => false);
  }

  /** Stops the expiry timers (the app is closing). */
  dispose(): void {
    this.#timers.clear();
  }

  /**
   * The app closes: a sign-in waiting for the service's answer is stopped, one already storing its token and
   * settings is waited for, and the expiry timers stop; nothing of a sign-in is written after this resolves.
   */
  async close(): Promise<void> {
    this.#closing.abort();
    await Promise.all(this.#signIns);
    this.dispose();
  }

  #begin(session: ActiveSession): void {
    this.#active = session;
    this.#ended = null;
    this.#timers.schedule(Date.parse(session.token.expiresAt), {
      warn: (minutesLeft) => {
        if (this.#active !== session) return;
        this.deps.events.emit('session.expiring', {
          profileId: session.profileId,
          username: session.username,
          expiresAt: session.token.expiresAt,
          minutesLeft,
        });
      },
      expire: () => {
        if (this.#active === session) this.#end(session, 'expired');
      },
    });
  }

  #end(session: ActiveSession, reason: EndReason): void {
    this.#active = null;
    this.#timers.clear();
    // The token is useless now; a failed delete only leaves a dead entry behind.
    this.#forget(session).catch(() => undefined);
    this.#ended = { profileId: session.profileId, username: session.username, reason };
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
