import { createHash, randomBytes } from 'node:crypto';

/**
 * One-time launch codes and the sessions they open. A code travels in a URL
 * (the one place a browser can be handed it), so it must be worth nothing once
 * seen: it opens exactly one session, once, within a short time. The session
 * token it is exchanged for is a different random value that only ever travels
 * in an HttpOnly cookie.
 *
 * Both are kept as SHA-256 digests, so a lookup compares digests of
 * attacker-chosen text, which leaks nothing about the real values through timing.
 */
export class LaunchCodes {
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Set<string>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
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
    this.#sessions.add(digest(session));
    return session;
  }

  isSession(token: string | null): boolean {
    return token !== null && token.length > 0 && this.#sessions.has(digest(token));
  }

  /** Codes minted and not yet spent or expired (for tests and diagnostics). */
  get pending(): number {
    this.#prune();
    return this.#codes.size;
  }

  #prune(): void {
    const now = this.#now();
    for (const [key, expiresAt] of this.#codes) if (expiresAt < now) this.#codes.delete(key);
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
