import type { SyncProgress, SyncSummary } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { AppEvents } from '../events.js';
import type { Replica } from './replica.js';
import { refreshReplica, type ReplicaSyncDeps } from './replica-sync.js';
import { tupleKey } from '../../../shared/format/tuple-key.js';

export interface ReplicaRefreshRunnerDeps extends ReplicaSyncDeps {
  readonly events: AppEvents;
  /** The replica a refresh fills: the signed-in user's. */
  readonly replica: () => Promise<Replica | null>;
}

/**
 * Runs the refreshes of the replica (replica-sync.ts): one at a time, each
 * cancellable from its first moment, its progress sent as events.
 */
export class ReplicaRefreshRunner {
  #controller: AbortController | null = null;
  /** The refresh under way, and whose replica it fills. */
  #running: { readonly owner: string; readonly summary: Promise<SyncSummary> } | null = null;
  /** Work under way that no refresh may write beside (a wipe of the copy). */
  #holds = 0;
  /** Refreshes that committed, told to the views as the copy's version (offline.copyChanged). */
  #version = 0;

  constructor(private readonly deps: ReplicaRefreshRunnerDeps) {}

  /**
   * A refresh asked for while one of the same replica runs (the background one
   * after sign-in, say) joins it: one at a time, and the asker gets its summary.
   */
  run(): Promise<SyncSummary> {
    const status = this.deps.session.status();
    const owner = tupleKey(status.profileId, status.username ?? '');
    if (this.#holds > 0) return Promise.reject(new AppFailure({ kind: 'conflict', message: 'The offline copy is being removed. Try again in a moment.' }));
    if (this.#running) {
      if (this.#running.owner === owner) return this.#running.summary;
      return Promise.reject(new AppFailure({ kind: 'conflict', message: 'A sync of another session is still finishing. Try again in a moment.' }));
    }
    const summary = this.#runOnce().finally(() => {
      if (this.#running?.summary === summary) this.#running = null;
    });
    this.#running = { owner, summary };
    return summary;
  }

  /** Asks the refresh under way to stop; false when there is none. */
  cancel(): boolean {
    if (!this.#controller) return false;
    this.#controller.abort();
    return true;
  }

  /** Cancels a refresh under way and waits until it has stopped. */
  async stop(): Promise<void> {
    const running = this.#running?.summary;
    this.cancel();
    await running?.catch(() => undefined);
  }

  /**
   * Runs work with no refresh beside it: one under way is cancelled and waited for first, and none starts
   * until the work is done (a refresh that ended after a wipe would write the copy back).
   */
  async stoppedWhile<T>(work: () => Promise<T>): Promise<T> {
    this.#holds += 1;
    try {
      await this.stop();
      return await work();
    } finally {
      this.#holds -= 1;
    }
  }

  async #runOnce(): Promise<SyncSummary> {
    // Cancellable from the first moment, so that a close or a cancel never waits for a refresh that has not begun sending.
    const controller = new AbortController();
    this.#controller = controller;
    const replica = await this.deps.replica().catch((error: unknown) => {
      this.#controller = null;
      throw error;
    });
    if (!replica || !this.deps.session.status().signedIn || controller.signal.aborted) {
      this.#controller = null;
      if (controller.signal.aborted) throw new AppFailure({ kind: 'cancelled', message: 'Sync cancelled. The previous offline copy is kept.' });
      throw new AppFailure({ kind: 'unauthorized', message: 'Sign in to sync policies for offline use.' });
    }
    const progress = (p: SyncProgress) => this.deps.events.emit('offline.syncProgress', p);
    try {
      const summary = await refreshReplica(replica, this.deps, controller.signal, progress);
      // After 'done': the views on screen read their windows again from what the refresh wrote.
      this.#copyChanged();
      return summary;
    } catch (error) {
      // The list commits before the details, the linked accounts and the DR lists are read: a refresh that
      // failed or was cancelled after it may have changed the copy all the same (a read again costs little).
      this.#copyChanged();
      if (controller.signal.aborted) {
        progress({ phase: 'cancelled', fetched: 0, total: 0, message: 'Sync cancelled; the previous offline copy is kept.' });
        throw new AppFailure({ kind: 'cancelled', message: 'Sync cancelled. The previous offline copy is kept.' });
      }
      progress({ phase: 'failed', fetched: 0, total: 0, message: error instanceof AppFailure ? error.error.message : 'Sync failed.' });
      throw error;
    } finally {
      this.#controller = null;
    }
  }

  #copyChanged(): void {
    this.#version += 1;
    this.deps.events.emit('offline.copyChanged', { version: this.#version });
  }
}
