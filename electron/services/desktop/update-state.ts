import type { UpdateState } from '../../../shared/ipc/desktop.js';

/** What the updater reports, whichever library sits behind it (electron-updater in the app). */
export type UpdaterEvent =
  | { readonly type: 'checking' }
  | { readonly type: 'available'; readonly version: string }
  | { readonly type: 'not-available' }
  | { readonly type: 'progress'; readonly percent: number }
  | { readonly type: 'downloaded'; readonly version: string }
  | { readonly type: 'error'; readonly message: string };

/**
 * The update state machine:
 *   idle/off/up-to-date/error --checking--> checking
 *   checking --available--> downloading(0%) --progress--> downloading(n%) --downloaded--> ready
 *   checking --not-available--> up-to-date
 *   any but ready --error--> error
 * `ready` is final for this run: the update installs on restart. Events that
 * make no sense in the current state (a late progress report) change nothing.
 */
export function nextUpdateState(state: UpdateState, event: UpdaterEvent, now: Date): UpdateState {
  if (state.phase === 'unavailable' || state.phase === 'ready') return state;
  // After "install it with your package manager", a later check starts over like any resting state.
  switch (event.type) {
    case 'checking':
      return state.phase === 'downloading' ? state : { phase: 'checking' };
    case 'available':
      return { phase: 'downloading', version: event.version, percent: 0 };
    case 'not-available':
      return state.phase === 'downloading' ? state : { phase: 'up-to-date', checkedAt: now.toISOString() };
    case 'progress':
      return state.phase === 'downloading' ? { ...state, percent: clampPercent(event.percent) } : state;
    case 'downloaded':
      return { phase: 'ready', version: event.version };
    case 'error':
      return { phase: 'error', message: shortMessage(event.message), at: now.toISOString() };
  }
}

/** Updater errors carry HTTP bodies and stacks; the app shows one plain line. */
export function shortMessage(message: string): string {
  const first = message.split('\n')[0]?.trim() ?? '';
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|net::ERR_/i.test(message)) return 'Could not reach the update server.';
  if (first.length === 0) return 'The update failed.';
  return first.length > 160 ? `${first.slice(0, 157)}...` : first;
}

function clampPercent(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(100, Math.max(0, Math.round(percent * 10) / 10));
}
