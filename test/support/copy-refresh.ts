import type { SyncProgress } from '../../shared/ipc/offline.js';
import type { AppServices } from '../../electron/services/app-services.js';
import type { AppEvents } from '../../electron/services/events.js';
import { SANDBOX_PROFILE_ID } from '../../electron/services/profiles/profile-registry.js';
import type { SandboxUser } from '../../sandbox/accounts.js';

const ENDINGS: ReadonlySet<SyncProgress['phase']> = new Set(['done', 'failed', 'cancelled']);

/**
 * Settles with the last progress of the next refresh of the copy to end (the one under way, or the next one
 * to start: the sign-in's, the interval's, one asked for), once the main process has told both its end (done,
 * failed, cancelled) and the copy's change (offline.copyChanged, which sends the views on screen to read
 * again). A test that needs a quiet app (request counts at the sandbox, a session it ends, a dialog it clicks)
 * asks for this before the step that starts the refresh (a sign-in) and waits for it after: the refresh then
 * runs before the test's steps, not beside them. Observed from the events, never timed.
 */
export function nextRefreshEnd(events: AppEvents): Promise<SyncProgress> {
  return new Promise((resolve) => {
    let ended: SyncProgress | null = null;
    let copyChanged = false;
    const unsubscribe = events.subscribe((event, payload) => {
      if (event === 'offline.copyChanged') copyChanged = true;
      else if (event === 'offline.syncProgress' && ENDINGS.has((payload as SyncProgress).phase)) ended = payload as SyncProgress;
      else return;
      // 'done' is told before the copy's change, 'failed' and 'cancelled' after it.
      if (ended && copyChanged) {
        unsubscribe();
        resolve(ended);
      }
    });
  });
}

/**
 * Signs a user in through the sign-in's own handler (as the sign-in screen does) and waits for the refresh of
 * the copy it starts to end: a page opened after this finds the session and a full copy, and no refresh runs
 * beside its steps. For a test whose subject is not the sign-in nor the refresh.
 */
export async function signInQuietly(services: Pick<AppServices, 'events' | 'handlers'>, user: SandboxUser): Promise<void> {
  const refreshed = nextRefreshEnd(services.events);
  await services.handlers['session.signIn']({ profileId: SANDBOX_PROFILE_ID, username: user.username, password: user.password });
  const { phase, message } = await refreshed;
  if (phase !== 'done') throw new Error(`the refresh after ${user.username}'s sign-in ended ${phase}: ${message ?? ''}`);
}
