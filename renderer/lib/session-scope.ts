import type { SessionStatus } from '../../shared/ipc/session.js';
import { tupleKey } from '../../shared/format/tuple-key.js';

/**
 * Whose data the renderer's caches hold: profile and user. Null while signed
 * out, so a session that merely expired keeps its caches and drafts for the
 * same user's return, while another user starts clean.
 */
export function scopeOf(status: SessionStatus | null): string | null {
  if (!status?.signedIn || !status.username) return null;
  // Kept with each user's saved layouts and views, so the form stays what it was; a part holding the separator (which
  // made two owners one scope, review16) is written as JSON instead, which never holds a raw U+0000: never equal to the other form.
  const { profileId, username } = status;
  return profileId.includes('\u0000') || username.includes('\u0000') ? tupleKey(profileId, username) : `${profileId}\u0000${username}`;
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
