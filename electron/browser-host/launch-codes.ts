import { createHash, randomBytes } from 'node:crypto';

/** A session ends after this long without a request (the app's own page asks every few seconds while open). */
export const DEFAULT_SESSION_IDLE_MS = 8 * 60 * 60_000;
/** And after this long in any case: a cookie copied off the machine is worth nothing the next day. */
export const DEFAULT_SESSION_MAX_MS = 24 * 60 * 60_000;

export interface LaunchCodesOptions {
  readonly now?: () => number;
  readonly sessionIdleMs?: number;
  readonly sessionMaxMs?: number;
}

interface Session {
  readonly openedAt: number;
  lastSeenAt: number;
}

/**
 * One-time launch codes and the sessions they open. A code travels in a URL
 * (the one place a browser can be handed it), so it must be worth nothing once
 * seen: it opens exactly one session, once, within a short time. The session
 * token it is exchanged for is a different random value that only ever travels
 * in an HttpOnly cookie, and it expires when idle and after a fixed lifetime.
 *
 * Both are kept as SHA-256 digests, so a lookup compares digests of
 * attacker-chosen text, which leaks nothing about the real values through timing.
 */
export class LaunchCodes {
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Map<string, Session>();
  readonly #now: () => number;
  readonly sessionIdleMs: number;
  readonly sessionMaxMs: number;

  constructor(options: LaunchCodesOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.sessionMaxMs = options.sessionMaxMs ?? DEFAULT_SESSION_MAX_MS;
  }

  /** A fresh code, good for one use within `ttlMs`. */
  mint(ttlMs: number): string {
    this.#prune();
    const code = randomBytes(32).toString('base64url');
    this.#codes.set(digest(code), this.#now() + ttlMs);
    return code;
  }

  /** Spends a code: a session token when it was valid and unused, else null. */
  redeem(code: string | null): string | null {
    this.#prune();
    if (!code) return null;
    const key = digest(code);
    const expiresAt = this.#codes.get(key);
    this.#codes.delete(key);
    if (expiresAt === undefined || expiresAt < this.#now()) return null;
    const session = randomBytes(32).toString('base64url');
    const now = this.#now();
    this.#sessions.set(digest(session), { openedAt: now, lastSeenAt: now });
    return session;
  }

  /** Whether the token opens a live session; a use keeps it from going idle. */
  isSession(token: string | null): boolean {
    if (token === null || token.length === 0) return false;
    const key = digest(token);
    const session = this.#sessions.get(key);
    if (!session) return false;
    const now = this.#now();
    if (!this.#alive(session, now)) {
      this.#sessions.delete(key);
      return false;
    }
    session.lastSeenAt = now;
    return true;
  }

  /** Codes minted and not yet spent or expired (for tests and diagnostics). */
  get pending(): number {
    this.#prune();
    return this.#codes.size;
  }

  #alive(session: Session, now: number): boolean {
    return now - session.lastSeenAt <= this.sessionIdleMs && now - session.openedAt <= this.sessionMaxMs;
  }

  #prune(): void {
    const now = this.#now();
    for (const [key, expiresAt] of this.#codes) if (expiresAt < now) this.#codes.delete(key);
    for (const [key, session] of this.#sessions) if (!this.#alive(session, now)) this.#sessions.delete(key);
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
