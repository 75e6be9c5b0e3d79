import type { CacheStatus, SyncProgress, SyncSummary } from '../../shared/ipc/offline.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import { api, onApiResult } from '../lib/api.js';
import { capacityList } from './capacity-list.svelte.js';
import { originOf } from '../lib/origin-of.js';

/** Why the app shows the offline copy. */
export type OfflineReason = 'unreachable' | 'chosen' | 'review';

const PROBE_INTERVAL_MS = 30_000;

const FINISHED: ReadonlySet<SyncProgress['phase']> = new Set(['done', 'cancelled', 'failed']);

/**
 * Online or offline review, and the offline copy's state. The app goes
 * offline by itself when the service cannot be reached and a copy exists; the
 * user can also choose to work offline, or review offline from the sign-in
 * screen without a network. While offline it checks now and then whether the
 * service is back, and then offers to refresh.
 */
class ConnectivityStore {
  offline = $state(false);
  reason = $state<OfflineReason>('unreachable');
  /** While offline: the service answered again. */
  reachable = $state(false);
  cache = $state<CacheStatus | null>(null);
  progress = $state<SyncProgress | null>(null);
  lastSync = $state<SyncSummary | null>(null);
  syncError = $state<AppError | null>(null);
  syncing = $state(false);
  /** The last read of the live service could not reach it. */
  serviceDown = $state(false);
  /**
   * Bumped at each return to the live service: the open view is mounted again,
   * so it reads again, and its old errors and offline notes go with it.
   */
  returned = $state(0);
  /** The unreadable copy the user dismissed (by when it was found), so the notice stays away for it. */
  dismissedUnreadable = $state<string | null>(null);
  #probe: ReturnType<typeof setInterval> | null = null;

  /** The age of the offline copy of the capacity list, or null when there is none. */
  readonly fetchedAt = $derived(this.cache?.fetchedAt.capacities ?? null);

  /** This user's offline copy exists but could not be read: nothing of it is shown. */
  readonly unreadable = $derived(this.cache?.unreadable ?? null);
  readonly showUnreadable = $derived(this.unreadable !== null && this.unreadable.detectedAt !== this.dismissedUnreadable);

  /** Settles once the results of calls are read (the channel facts are in): before that they wait, none is lost. */
  listening: Promise<void> = Promise.resolve();

  start(): () => void {
    // The channel facts come with the whole IPC contract (every schema): fetched beside the first screen rather
    // than in its script. Results that come before it are read when it is in, in the order they came.
    const contract = import('../../shared/ipc/contract.js');
    let stopped = false;
    const stopResults = onApiResult((channel, result) => {
      void contract.then(({ switchesToOfflineOnFailure }) => {
        // Only a read that could not reach the service switches to the offline copy: a failed save
        // or purchase stays on its form, with its message and a retry.
        if (!stopped && switchesToOfflineOnFailure(channel)) this.#serviceRead(result);
      });
    });
    this.listening = contract.then(() => undefined);
    const stopProgress = api.on('offline.syncProgress', (progress) => {
      this.progress = progress;
      // The notice follows the copy (the views read again on offline.copyChanged: copy-changes.ts).
      if (progress.phase === 'done' && !this.syncing) void this.refreshStatus();
    });
    // Whose copy it is changes with the session: its status is read again each time.
    const stopSession = api.on('session.changed', () => void this.refreshStatus());
    // The main process noticed the service go away or come back, without a view asking (its ServiceWatch).
    const stopWatch = api.on('network.serviceChanged', (state) => void this.#serviceNoticed(state.reachable));
    // The computer's network came back: ask the service at once rather than at the next probe.
    const onOnline = () => {
      if (this.offline && this.reason === 'unreachable') void this.checkNow();
    };
    globalThis.addEventListener?.('online', onOnline);
    void this.refreshStatus();
    return () => {
      stopped = true;
      stopResults();
      stopProgress();
      stopSession();
      stopWatch();
      globalThis.removeEventListener?.('online', onOnline);
      this.#stopProbe();
    };
  }

  /** A read of the service answered: it went away (go offline when a copy exists), or it is there again. */
  #serviceRead(result: Result<unknown>): void {
    // A read the local copy answered because the service could not be reached says so in its origin.
    const origin = result.ok ? originOf(result.value) : null;
    const down = result.ok ? origin?.serviceUnreachable === true : result.error.kind === 'offline';
    // A live answer may have been asked before the service went away: only a check made now brings the app back.
    if (result.ok && origin?.source === 'service') this.serviceDown = false;
    if (!down) return;
    this.serviceDown = true;
    void this.#unreachable();
  }

  /** Away: offline at once when a copy exists (actions off). Back: the same moment of coming back as a check's. */
  async #serviceNoticed(reachable: boolean): Promise<void> {
    if (!reachable) {
      this.serviceDown = true;
      await this.#unreachable();
      return;
    }
    this.serviceDown = false;
    if (this.offline && this.reason === 'unreachable') {
      this.reachable = true;
      await this.#comeBack();
    }
  }

  async refreshStatus(): Promise<void> {
    const status = await api.offline.status();
    if (status.ok) this.cache = status.value;
  }

  /** A refresh of the local copy is under way (started here, or in the background by the main process). */
  readonly running = $derived(this.syncing || (this.progress !== null && !FINISHED.has(this.progress.phase)));

  /** A refresh can start: online, signed in (the views ask), none running. */
  get canRefresh(): boolean {
    return !this.offline && !this.running;
  }

  /**
   * The user chose to work offline (e.g. before boarding): from now on nothing
   * is asked of the service, every view answers from the local copy.
   */
  async workOffline(profileId: string): Promise<AppError | null> {
    const result = await api.offline.enter({ profileId });
    if (!result.ok) return result.error;
    this.cache = result.value;
    this.#enter('chosen');
    return null;
  }

  /** From the sign-in screen, with no network: open the last user's offline copy. */
  async review(profileId: string): Promise<AppError | null> {
    const result = await api.offline.enter({ profileId });
    if (!result.ok) return result.error;
    this.cache = result.value;
    this.serviceDown = true;
    this.#enter('review');
    return null;
  }

  /** Back to the live service by choice (after working offline, or leaving a review). */
  async goOnline(): Promise<void> {
    if (this.reason !== 'unreachable') await api.offline.leave();
    await this.#comeBack();
  }

  /**
   * One moment of coming back: offline ends, old failures are dropped, the
   * open view reads again (live, with its actions), and the copy is refreshed.
   */
  async #comeBack(): Promise<void> {
    if (!this.offline) return;
    const wasReview = this.reason === 'review';
    this.offline = false;
    this.reachable = false;
    this.serviceDown = false;
    this.syncError = null;
    this.#stopProbe();
    this.returned += 1;
    capacityList.refresh();
    // A review without signing in has no session to refresh with: the sign-in screen comes first.
    if (!wasReview && !this.running) await this.sync();
  }

  async sync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    this.syncError = null;
    this.progress = { phase: 'capacities', fetched: 0, total: 0 };
    const result = await api.offline.sync();
    this.syncing = false;
    if (result.ok) this.lastSync = result.value;
    else this.syncError = result.error;
    await this.refreshStatus();
  }

  async cancelSync(): Promise<void> {
    await api.offline.cancelSync();
  }

  async #unreachable(): Promise<void> {
    if (this.offline) return;
    await this.refreshStatus();
    // Without a readable offline copy there is nothing to switch to: the views show their own error and
    // retry, and an unreadable copy is explained by its own notice.
    if (this.cache?.fetchedAt.capacities && !this.cache.unreadable) this.#enter('unreachable');
  }

  #enter(reason: OfflineReason): void {
    this.reason = reason;
    this.offline = true;
    this.reachable = false;
    this.#startProbe();
  }

  #startProbe(): void {
    this.#stopProbe();
    if (this.reason === 'review') return;
    this.#probe = setInterval(() => void this.checkNow(), PROBE_INTERVAL_MS);
  }

  #stopProbe(): void {
    if (this.#probe) clearInterval(this.#probe);
    this.#probe = null;
  }

  dismissUnreadable(): void {
    this.dismissedUnreadable = this.unreadable?.detectedAt ?? null;
  }

  /** Asks the service for something small; when it answers after it could not be reached, the app is back at once. */
  async checkNow(): Promise<boolean> {
    const result = await api.network.checkService();
    const reachable = result.ok && result.value.reachable;
    this.reachable = reachable;
    if (reachable && this.offline && this.reason === 'unreachable') await this.#comeBack();
    return reachable;
  }
}

export const connectivity = new ConnectivityStore();
