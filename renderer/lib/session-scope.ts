import type { SessionStatus } from '../../shared/ipc/session.js';

/**
 * Whose data the renderer's caches hold: profile and user. Null while signed
 * out, so a session that merely expired keeps its caches and drafts for the
 * same user's return, while another user starts clean.
 */
export function scopeOf(status: SessionStatus | null): string | null {
  if (!status?.signedIn || !status.username) return null;
  return `${status.profileId}\u0000${status.username}`;
}

/**
 * The one place that notices another user's session: every store that caches
 * a user's data registers its reset here, and the session store reports each
 * status. Signing out or an expired session (scope null) resets nothing, so
 * the same user's return finds everything as they left it.
 */
class SessionScope {
  #current: string | null = null;
  readonly #resets = new Set<() => void>();

  /** The scope of the signed-in user, or of the last one while signed out. */
  get current(): string | null {
    return this.#current;
  }

  /** `reset` runs whenever another user's session begins; returns the function that unregisters it. */
  register(reset: () => void): () => void {
    this.#resets.add(reset);
    return () => this.#resets.delete(reset);
  }

  use(scope: string | null): void {
    if (scope === null || scope === this.#current) return;
    const previous = this.#current;
    this.#current = scope;
    // The first user of the window has nothing of anyone else's to drop.
    if (previous !== null) for (const reset of this.#resets) reset();
  }
}

export const sessionScope = new SessionScope();
