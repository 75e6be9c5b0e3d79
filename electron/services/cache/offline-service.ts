import type { CapacityPolicy, CapacityView } from '../../../shared/api/capacity.js';
import type { CyberListItem, CyberView } from '../../../shared/api/cyber.js';
import type { UpcomingCapacity } from '../replica/capacity-replica-db.js';
import type { LinkedAccountList } from '../../../shared/api/accounts.js';
import {
  LocalCapacityQuery,
  type CacheStatus,
  type LocalCapacityWindow,
  type SyncProgress,
  type SyncSummary,
} from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { AppEvents } from '../events.js';
import type { Logger } from '../logging/file-logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SessionService } from '../session/session-service.js';
import { PolicyCache, type CacheOwner } from './policy-cache.js';
import { refreshReplica } from '../replica/replica-sync.js';
import { sameOwner, type Owner } from '../platform/owner.js';

export interface OfflineDeps {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly session: Pick<SessionService, 'status' | 'authorized'>;
  readonly events: AppEvents;
  /** Customer ids whose DR policies should be kept for offline review. */
  readonly customersToSync?: () => readonly string[];
  /** Usernames last signed in per profile (to open a cache without signing in). */
  readonly lastUsername: (profileId: string) => string | undefined;
  /** Where an unreadable offline copy is reported. */
  readonly logger: Pick<Logger, 'warn'>;
  /** How long after the first screen every page of a copy opened at start is read (tests: 0). */
  readonly verifyDelayMs?: number;
  /**
   * Resolves once the person's first screen has been answered (or a few seconds passed): the slim rows' load
   * at sign-in and the check of every page of the copy wait for it. By default nothing is waited for.
   */
  readonly afterFirstScreen?: () => Promise<void>;
}

/**
 * Offline review: keeps the cache of whoever is signed in (or of the last user
 * of a profile, for review without a network), syncs it, and answers queries
 * from it.
 */
export class OfflineService {
  #cache: PolicyCache | null = null;
  #opening: { readonly id: string; readonly cache: Promise<PolicyCache> } | null = null;
  #sync: AbortController | null = null;
  /** The sync under way, and whose copy it fills. */
  #running: { readonly owner: string; readonly summary: Promise<SyncSummary> } | null = null;
  /** Set while reviewing offline without a session. */
  #offlineOwner: CacheOwner | null = null;

  constructor(private readonly deps: OfflineDeps) {
    // After the first screen: loading 100,000 slim rows takes the process for seconds under load, and the
    // overview a sign-in or launch lands on is counted by SQL without them (issue 25).
    const warmAfterFirstScreen = () => void (deps.afterFirstScreen?.() ?? Promise.resolve()).then(() => this.warm());
    deps.events.subscribe((event) => {
      if (event === 'session.changed' && deps.session.status().signedIn) warmAfterFirstScreen();
    });
    if (deps.session.status().signedIn) warmAfterFirstScreen();
  }

  /** Whose copy the views see: the signed-in user, or the one reviewed offline; null when neither. */
  owner(): Owner | null {
    const status = this.deps.session.status();
    return status.signedIn && status.username ? { profileId: status.profileId, username: status.username } : this.#offlineOwner;
  }

  /** The cache of the signed-in user, or of the offline owner; null when neither. */
  async cache(): Promise<PolicyCache | null> {
    const owner = this.owner();
    if (!owner) return null;
    if (this.#cache && this.#cache.owner.profileId === owner.profileId && this.#cache.owner.username === owner.username) return this.#cache;
    // One opening per owner however many callers ask at once: two would each judge the copy, and report it twice.
    const id = `${owner.profileId}\n${owner.username}`;
    if (this.#opening?.id !== id) {
      const opening = PolicyCache.open({
        dataDir: this.deps.dataDir,
        secrets: this.deps.secrets,
        owner,
        logger: this.deps.logger,
        ...(this.deps.verifyDelayMs !== undefined ? { verifyDelayMs: this.deps.verifyDelayMs } : {}),
        ...(this.deps.afterFirstScreen ? { afterFirstScreen: this.deps.afterFirstScreen } : {}),
      }).then(
        (cache) => {
          if (this.#opening?.id === id) {
            // The previous owner's database is closed: one open replica at a time.
            const previous = this.#cache;
            this.#cache = cache;
            this.#opening = null;
            if (previous && previous !== cache) void previous.close().catch(() => undefined);
          }
          return cache;
        },
        (error: unknown) => {
          if (this.#opening?.id === id) this.#opening = null;
          throw error;
        },
      );
      this.#opening = { id, cache: opening };
    }
    return this.#opening.cache;
  }

  /**
   * The cache, after checking that what it holds in memory is still what is
   * on disk: every answer from the offline copy goes through here.
   */
  async #verifiedCache(): Promise<PolicyCache | null> {
    const cache = await this.cache();
    await cache?.revalidate();
    return cache;
  }

  /** The verified copy, for an answer read from it; null when there is none or it was found unreadable. */
  async #readableCopy(): Promise<PolicyCache | null> {
    const cache = await this.#verifiedCache();
    return cache && !cache.unreadable ? cache : null;
  }

  async status(): Promise<CacheStatus> {
    const cache = await this.#verifiedCache();
    if (!cache) return { persistent: this.deps.secrets.status.kind !== 'memory', fetchedAt: {}, capacityCount: 0, discarded: 0 };
    const fetchedAt = await cache.summary();
    const capacityCount = await cache.capacityCount();
    const unreadable = cache.unreadable;
    return {
      persistent: cache.persistent,
      ...(cache.persistent ? {} : { reason: 'No system keychain: the offline cache is kept in memory only and nothing is written to disk.' }),
      fetchedAt,
      capacityCount,
      discarded: cache.discarded,
      ...(unreadable ? { unreadable } : {}),
    };
  }

  /**
   * Opens the last user's cache of a profile for review without signing in.
   * Only possible when that user's cache key is in this computer's keychain.
   */
  async enterOffline(profileId: string): Promise<CacheStatus> {
    // Signed in: working offline by choice over this session's copy (in memory when there is no keychain).
    const session = this.deps.session.status();
    const signedInHere = session.signedIn && session.profileId === profileId ? session.username : undefined;
    const username = signedInHere ?? this.deps.lastUsername(profileId);
    if (!username || (!signedInHere && this.deps.secrets.status.kind === 'memory')) {
      throw new AppFailure({ kind: 'not-found', message: 'There is no offline copy on this computer for this profile. Sign in and sync first.' });
    }
    // Opened even when its key is gone from the keychain, so that a copy lost with its key is reported, not ignored.
    this.#offlineOwner = { profileId, username };
    const status = await this.status();
    // An unreadable copy is entered too: the user is then told what was lost, and nothing of it is shown.
    if (!status.fetchedAt.capacities && !status.unreadable) {
      this.#offlineOwner = null;
      throw new AppFailure({ kind: 'not-found', message: 'There is no offline copy on this computer for this profile. Sign in and sync first.' });
    }
    return status;
  }

  leaveOffline(): void {
    this.#offlineOwner = null;
  }

  /** Reviewing the copy without asking the service (no session, or offline by choice). */
  get reviewing(): boolean {
    return this.#offlineOwner !== null;
  }

  /** When the capacity list of the copy was fetched; null when there is none (or it cannot be read). */
  async capacitiesFetchedAt(): Promise<string | null> {
    return (await (await this.#readableCopy())?.capacitiesFetchedAt()) ?? null;
  }

  /** Policies in the copy's capacity list (0 when there is none, or it cannot be read). */
  async capacityCount(): Promise<number> {
    return (await (await this.#readableCopy())?.capacityCount()) ?? 0;
  }

  /**
   * The overview's figures from the replica's slim rows (no record is read
   * whole); null when the copy holds no list.
   */
  async capacityOverview(asOf: Date) {
    return (await (await this.#readableCopy())?.capacityOverview(asOf)) ?? null;
  }

  /** Each account's active policies, spend and savings, for the overview by customer; null when the copy holds no list. */
  async capacityTotalsByAccount() {
    return (await (await this.#readableCopy())?.capacityTotalsByAccount()) ?? null;
  }

  /** The worklist's policies from the replica (see PolicyCache.upcomingCapacities); unreadable when the copy is. */
  async upcomingCapacities(fromMs: number, toMs: number, pick: (upcoming: readonly UpcomingCapacity[]) => readonly number[]) {
    const cache = await this.#verifiedCache();
    if (!cache) return { answer: null };
    if (cache.unreadable) return { answer: null, unreadable: cache.unreadable };
    return { answer: await cache.upcomingCapacities(fromMs, toMs, pick) };
  }

  /**
   * Write-through of one policy the service just answered with: one row of the
   * replica, the others untouched. A copy not yet synced stays empty (its age
   * would lie).
   */
  async upsertCapacity(policy: CapacityPolicy): Promise<void> {
    const cache = await this.#verifiedCache();
    await cache?.upsertCapacity(policy);
  }

  /**
   * Starts loading the replica's slim rows in the background (after sign-in,
   * at start), so that search and sort answer from memory before anyone asks.
   */
  warm(): void {
    void this.#verifiedCache()
      .then((cache) => cache?.warm())
      .catch(() => undefined);
  }

  /**
   * A window of the capacity list from the replica: slim rows in memory for
   * search and sort, whole records read from the database for the rows shown
   * only. While the slim rows load, SQL answers (`loading` is then true).
   */
  async queryCapacities(input: LocalCapacityQuery): Promise<LocalCapacityWindow> {
    const query = LocalCapacityQuery.parse(input);
    const cache = await this.cache();
    const empty = { rows: [], offset: query.offset, total: 0, fetchedAt: null, loading: false, leftOut: [] };
    if (!cache) return empty;
    // The search runs while the files are checked against what is open (a directory read: 0.5 to 15 ms measured,
    // each keystroke); an answer read before a change was found is asked again of the copy opened afresh.
    const epoch = cache.epoch;
    let [answer] = await Promise.all([cache.unreadable ? null : cache.queryCapacities(query), cache.revalidate()]);
    if (cache.epoch !== epoch) answer = cache.unreadable ? null : await cache.queryCapacities(query);
    // Checked after reading and after the check: once unreadable, never a row.
    if (cache.unreadable) return { ...empty, unreadable: cache.unreadable };
    if (!answer) return empty;
    return { rows: answer.rows, offset: query.offset, total: answer.total, fetchedAt: answer.fetchedAt, loading: answer.loading, leftOut: answer.leftOut };
  }

  async capacityView(cidrId: string) {
    return (await (await this.#verifiedCache())?.readRecord('capacityViews', cidrId)) ?? null;
  }

  async accounts() {
    return (await (await this.#verifiedCache())?.read('accounts')) ?? null;
  }

  async cyberList(customerId: string) {
    return (await (await this.#verifiedCache())?.readRecord('cyberLists', customerId.toUpperCase())) ?? null;
  }

  async cyberView(cidrId: string) {
    return (await (await this.#verifiedCache())?.readRecord('cyberViews', cidrId)) ?? null;
  }

  /**
   * The activity entries this owner's copy kept before own data existed, for
   * their one move there; null when that copy is not the one open now (asked
   * again at the next opening of the own data).
   */
  async legacyActivity(owner: Owner): Promise<string[] | null> {
    const cache = await this.cache();
    // A copy in memory (the keychain did not answer just now) is not the file that holds them.
    if (!cache || !cache.persistent || !sameOwner(cache.owner, owner)) return null;
    return cache.legacyActivity();
  }

  async wipe(): Promise<CacheStatus> {
    const cache = await this.cache();
    await cache?.wipe();
    return this.status();
  }

  /** Write-through of what the user opens online (one record), so it can be reviewed offline later. */
  async rememberCapacityView(cidrId: string, view: CapacityView): Promise<void> {
    await (await this.cache())?.writeRecord('capacityViews', cidrId, view);
  }

  async rememberCyberView(cidrId: string, view: CyberView): Promise<void> {
    await (await this.cache())?.writeRecord('cyberViews', cidrId, view);
  }

  /**
   * Write-through of a page of a customer's DR list read online: its policies
   * join the ones kept for that customer (a page is not the whole list, so
   * nothing kept is dropped), so the list opened a minute ago is there offline.
   */
  async rememberCyberPage(customerId: string, items: readonly CyberListItem[]): Promise<void> {
    const cache = await this.cache();
    if (!cache) return;
    const id = customerId.toUpperCase();
    const kept = (await cache.readRecord('cyberLists', id))?.value ?? [];
    const byId = new Map(kept.map((item) => [item.cidrId, item]));
    for (const item of items) byId.set(item.cidrId, item);
    await cache.writeRecord('cyberLists', id, [...byId.values()]);
  }

  async rememberAccounts(accounts: LinkedAccountList): Promise<void> {
    const cache = await this.cache();
    await cache?.write('accounts', accounts);
  }

  /**
   * Closes the open replica (at quit): its journal is folded into the file.
   * Not closing is safe too (the next start recovers the journal), only slower.
   */
  async close(): Promise<void> {
    await this.stopSync();
    const cache = this.#cache;
    this.#cache = null;
    this.#opening = null;
    await cache?.close();
  }

  /** Cancels a sync under way and waits until it and every write-through have stopped writing. */
  async stopSync(): Promise<void> {
    const running = this.#running?.summary;
    this.cancelSync();
    await running?.catch(() => undefined);
    await this.#cache?.settled();
  }

  cancelSync(): boolean {
    if (!this.#sync) return false;
    this.#sync.abort();
    return true;
  }

  /**
   * A refresh asked for while one of the same copy runs (the background one
   * after sign-in, say) joins it: one sync at a time, and the asker gets its summary.
   */
  sync(): Promise<SyncSummary> {
    const status = this.deps.session.status();
    const owner = `${status.profileId}\n${status.username ?? ''}`;
    if (this.#running) {
      if (this.#running.owner === owner) return this.#running.summary;
      return Promise.reject(new AppFailure({ kind: 'conflict', message: 'A sync of another session is still finishing. Try again in a moment.' }));
    }
    const summary = this.#syncOnce().finally(() => {
      if (this.#running?.summary === summary) this.#running = null;
    });
    this.#running = { owner, summary };
    return summary;
  }

  async #syncOnce(): Promise<SyncSummary> {
    // Cancellable from the first moment, so that a close or a cancel never waits for a sync that has not begun sending.
    const controller = new AbortController();
    this.#sync = controller;
    const cache = await this.cache().catch((error: unknown) => {
      this.#sync = null;
      throw error;
    });
    if (!cache || !this.deps.session.status().signedIn || controller.signal.aborted) {
      this.#sync = null;
      if (controller.signal.aborted) throw new AppFailure({ kind: 'cancelled', message: 'Sync cancelled. The previous offline copy is kept.' });
      throw new AppFailure({ kind: 'unauthorized', message: 'Sign in to sync policies for offline use.' });
    }
    const progress = (p: SyncProgress) => this.deps.events.emit('offline.syncProgress', p);
    try {
      return await refreshReplica(cache, this.deps, controller.signal, progress);
    } catch (error) {
      if (controller.signal.aborted) {
        progress({ phase: 'cancelled', fetched: 0, total: 0, message: 'Sync cancelled; the previous offline copy is kept.' });
        throw new AppFailure({ kind: 'cancelled', message: 'Sync cancelled. The previous offline copy is kept.' });
      }
      progress({ phase: 'failed', fetched: 0, total: 0, message: error instanceof AppFailure ? error.error.message : 'Sync failed.' });
      throw error;
    } finally {
      this.#sync = null;
    }
  }
}
