import type { CacheStatus, SyncProgress, SyncSummary } from '../../shared/ipc/offline.js';
import type { AppError } from '../../shared/ipc/result.js';
import { isServiceRead } from '../../shared/ipc/contract.js';
import { api, onApiResult } from '../lib/api.js';
import { navigation } from './navigation.svelte.js';

/** Why the app shows the offline copy. */
export type OfflineReason = 'unreachable' | 'chosen' | 'review';

const PROBE_INTERVAL_MS = 30_000;

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
  /** The unreadable copy the user dismissed (by when it was found), so the notice stays away for it. */
  dismissedUnreadable = $state<string | null>(null);
  #probe: ReturnType<typeof setInterval> | null = null;

  /** The age of the offline copy of the capacity list, or null when there is none. */
  readonly fetchedAt = $derived(this.cache?.fetchedAt.capacities ?? null);

  /** This user's offline copy exists but could not be read: nothing of it is shown. */
  readonly unreadable = $derived(this.cache?.unreadable ?? null);
  readonly showUnreadable = $derived(this.unreadable !== null && this.unreadable.detectedAt !== this.dismissedUnreadable);

  start(): () => void {
    const stopResults = onApiResult((channel, result) => {
      // Only a read that could not reach the service switches to the offline copy: a failed save
      // or purchase stays on its form, with its message and a retry.
      if (!isServiceRead(channel)) return;
      if (result.ok) this.serviceDown = false;
      if (result.ok || result.error.kind !== 'offline') return;
      this.serviceDown = true;
      void this.#unreachable();
    });
    const stopProgress = api.on('offline.syncProgress', (progress) => {
      this.progress = progress;
      // A background refresh may have replaced an unreadable copy: the notice follows the copy.
      if (progress.phase === 'done' && !this.syncing) void this.refreshStatus();
    });
    // Whose copy it is changes with the session: its status is read again each time.
    const stopSession = api.on('session.changed', () => void this.refreshStatus());
    void this.refreshStatus();
    return () => {
      stopResults();
      stopProgress();
      stopSession();
      this.#stopProbe();
    };
  }

  async refreshStatus(): Promise<void> {
    const status = await api.offline.status();
    if (status.ok) this.cache = status.value;
  }

  /** The user chose to work offline (e.g. before boarding). */
  async workOffline(): Promise<void> {
    await this.refreshStatus();
    this.#enter('chosen');
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

  /** Back to the live service (after "Refresh" once it is reachable, or by choice). */
  async goOnline(): Promise<void> {
    if (this.reason === 'review') await api.offline.leave();
    this.offline = false;
    this.reachable = false;
    this.#stopProbe();
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
    // The overview's figures are live only; the offline copy opens on its list.
    if (navigation.current.view === 'overview') navigation.go({ view: 'capacity-list' });
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

  /** Asks the service for something small; success means it is back. */
  dismissUnreadable(): void {
    this.dismissedUnreadable = this.unreadable?.detectedAt ?? null;
  }

  async checkNow(): Promise<boolean> {
    const result = await api.accounts.list();
    this.reachable = result.ok;
    return result.ok;
  }
}

export const connectivity = new ConnectivityStore();
