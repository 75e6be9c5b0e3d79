import type { SessionStatus } from '../../shared/ipc/models.js';

/**
 * Whose data the renderer's caches hold: profile and user. Null while signed
 * out, so a session that merely expired keeps its caches and drafts for the
 * same user's return, while another user starts clean.
 */
export function scopeOf(status: SessionStatus | null): string | null {
  if (!status?.signedIn || !status.username) return null;
  return `${status.profileId}\u0000${status.username}`;
}
