import { LocalCapacityQuery, type CacheStatus, type LocalCapacityWindow, type UnreadableCopy } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { AppEvents } from '../events.js';
import type { Logger } from '../logging/file-logger.js';
import { sameOwner, type Owner } from '../platform/owner.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SessionService } from '../session/session-service.js';
import { Replica } from './replica.js';
import { capacityCount, capacityWindow, fetchedAtByKind, legacyActivity } from './replica-reads.js';
import { forgetLegacyActivity } from './replica-writes.js';
import { ReplicaRefreshRunner } from './replica-refresh-runner.js';
import type { SliceTurn } from './requests-first.js';
import { tupleKey } from '../../../shared/format/tuple-key.js';

export interface CurrentReplicaDeps {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly session: Pick<SessionService, 'status' | 'authorized'>;
  readonly events: AppEvents;
  /** Customer ids whose DR policies should be kept for offline review. */
  readonly customersToSync?: () => readonly string[];
  /** Usernames last signed in per profile (to open a replica without signing in). */
  readonly lastUsername: (profileId: string) => string | undefined;
  /** Where an unreadable replica is reported. */
  readonly logger: Pick<Logger, 'warn'>;
  /** How long after the first screen every page of a replica opened at start is read (tests: 0). */
  readonly verifyDelayMs?: number;
  /**
   * Resolves once the person's first screen has been answered (or a few seconds passed): the slim rows' load
   * at sign-in and the check of every page of the replica wait for it. By default nothing is waited for.
   */
  readonly afterFirstScreen?: () => Promise<void>;
  /** What the check of every page and the slim rows' load wait for before each slice (RequestsFirst.turn); nothing by default. */
  readonly sliceTurn?: SliceTurn;
  /** Told as a refresh's capacity list has committed, before its details, accounts and DR lists (replica-sync.ts). */
  readonly listCommitted?: () => void;
}

/** An answer read from the replica, with what was found when the replica could not be read. */
export interface ReplicaAnswer<T> {
  readonly answer: T | null;
  readonly unreadable?: UnreadableCopy;
}

export interface ReadOptions {
  /**
   * False reads the replica as it is open, without checking its files against
   * the disk first: for a read each keystroke makes when the query that follows
   * checks them anyway. 'while-reading' checks them beside the read (a
   * listing of the copy's folder on the calling thread, 0.05 ms; a change found
   * is then read in full first), and reads again of the replica opened afresh
   * when the check found a change: for the reads a person waits on.
   */
  readonly checkFiles?: boolean | 'while-reading';
}

const NO_COPY = 'There is no offline copy on this computer for this profile. Sign in and sync first.';

/**
 * The replica the views see: the signed-in user's, or the last user's of a
 * profile for review without a network. One is open at a time; every answer
 * from it is read after checking that what it holds in memory is still what
 * is on disk (`read`, the one place that check is made).
 */
export class CurrentReplica {
  /** Refreshes of the signed-in user's replica (one at a time, cancellable). */
  readonly refresh: ReplicaRefreshRunner;
  #held: Replica | null = null;
  #opening: { readonly id: string; readonly replica: Promise<Replica> } | null = null;
  /** Set while reviewing offline without a session. */
  #offlineOwner: Owner | null = null;
  /** Set by close: no replica is opened again after it (a deferred load or check would write into the data folder). */
  #closed = false;
  /** Work started here in the background (a previous owner's close, a load of the slim rows): close waits for it. */
  readonly #background = new Set<Promise<unknown>>();

  constructor(private readonly deps: CurrentReplicaDeps) {
    this.refresh = new ReplicaRefreshRunner({ ...deps, replica: () => this.replica() });
    // After the first screen: loading 100,000 slim rows takes the process for seconds under load, and the
    // overview a sign-in or launch lands on is counted by SQL without them (issue 25).
    const warmAfterFirstScreen = () =>
      void (deps.afterFirstScreen?.() ?? Promise.resolve()).then(() => {
        if (!this.#closed) this.warm();
      });
    deps.events.subscribe((event) => {
      if (event === 'session.changed' && deps.session.status().signedIn) warmAfterFirstScreen();
    });
    if (deps.session.status().signedIn) warmAfterFirstScreen();
  }

  /** Whose replica the views see: the signed-in user, or the one reviewed offline; null when neither. */
  owner(): Owner | null {
    const status = this.deps.session.status();
    return status.signedIn && status.username ? { profileId: status.profileId, username: status.username } : this.#offlineOwner;
  }

  /** The replica of the signed-in user, or of the offline owner, opened if need be; null when neither. Writes use it as it is. */
  async replica(): Promise<Replica | null> {
    const owner = this.owner();
    if (!owner || this.#closed) return null;
    if (this.#held && sameOwner(this.#held.owner, owner)) return this.#held;
    // One opening per owner however many callers ask at once: two would each judge the copy, and report it twice.
    const id = tupleKey(owner.profileId, owner.username);
    if (this.#opening?.id !== id) {
      const opening = Replica.open({
        dataDir: this.deps.dataDir,
        secrets: this.deps.secrets,
        owner,
        logger: this.deps.logger,
        ...(this.deps.verifyDelayMs !== undefined ? { verifyDelayMs: this.deps.verifyDelayMs } : {}),
        ...(this.deps.afterFirstScreen ? { afterFirstScreen: this.deps.afterFirstScreen } : {}),
        ...(this.deps.sliceTurn ? { sliceTurn: this.deps.sliceTurn } : {}),
      }).then(
        (replica) => {
          if (this.#opening?.id === id) {
            // The previous owner's database is closed: one open replica at a time.
            const previous = this.#held;
            this.#held = replica;
            this.#opening = null;
            if (previous && previous !== replica) this.#inBackground(previous.close());
          }
          return replica;
        },
        (error: unknown) => {
          if (this.#opening?.id === id) this.#opening = null;
          throw error;
        },
      );
      this.#opening = { id, replica: opening };
    }
    return this.#opening.replica;
  }

  /** The replica, after checking that what it holds in memory is still what is on disk; it may have been found unreadable. */
  async verified(): Promise<Replica | null> {
    const replica = await this.replica();
    await replica?.revalidate();
    return replica;
  }

  /**
   * Reads from the verified replica; null when there is none or it was found
   * unreadable (then `unreadable` says what was lost). Every answer from the
   * replica goes through here.
   */
  async readWithHealth<T>(use: (replica: Replica) => Promise<T | null>, options: ReadOptions = {}): Promise<ReplicaAnswer<T>> {
    if (options.checkFiles === 'while-reading') return this.#readWhileChecking(use);
    const replica = await (options.checkFiles === false ? this.replica() : this.verified());
    if (!replica) return { answer: null };
    if (replica.unreadable) return { answer: null, unreadable: replica.unreadable };
    return { answer: await use(replica) };
  }

  async #readWhileChecking<T>(use: (replica: Replica) => Promise<T | null>): Promise<ReplicaAnswer<T>> {
    const replica = await this.replica();
    if (!replica) return { answer: null };
    const epoch = replica.epoch;
    // The check first, so its file reads run while the read holds the thread.
    const checked = replica.revalidate();
    let [answer] = await Promise.all([replica.unreadable ? null : use(replica), checked]);
    if (replica.epoch !== epoch) answer = replica.unreadable ? null : await use(replica);
    // Checked after reading and after the check: once unreadable, never a row.
    if (replica.unreadable) return { answer: null, unreadable: replica.unreadable };
    return { answer };
  }

  /** Reads from the verified replica; null when there is none or it cannot be read. */
  async read<T>(use: (replica: Replica) => Promise<T | null>, options: ReadOptions = {}): Promise<T | null> {
    return (await this.readWithHealth(use, options)).answer;
  }

  /** Writes to the replica as it is (a write-through); nothing when there is none. */
  async write(use: (replica: Replica) => Promise<unknown>): Promise<void> {
    const replica = await this.replica();
    if (replica) await use(replica);
  }

  /**
   * A window of the capacity list: slim rows in memory for search and sort,
   * whole records read from the database for the rows shown only. While the
   * slim rows load, SQL answers (`loading` is then true).
   */
  async queryCapacities(input: LocalCapacityQuery): Promise<LocalCapacityWindow> {
    const query = LocalCapacityQuery.parse(input);
    const empty = { rows: [], offset: query.offset, total: 0, fetchedAt: null, loading: false, leftOut: [] };
    // Each keystroke: the search runs while the files are checked.
    const { answer, unreadable } = await this.#readWhileChecking((replica) => capacityWindow(replica, query));
    if (unreadable) return { ...empty, unreadable };
    if (!answer) return empty;
    return { rows: answer.rows, offset: query.offset, total: answer.total, fetchedAt: answer.fetchedAt, loading: answer.loading, leftOut: answer.leftOut };
  }

  async status(): Promise<CacheStatus> {
    const replica = await this.verified();
    if (!replica) return { persistent: this.deps.secrets.status.kind !== 'memory', fetchedAt: {}, capacityCount: 0, discarded: 0 };
    const fetchedAt = await fetchedAtByKind(replica);
    const count = await capacityCount(replica);
    const unreadable = replica.unreadable;
    return {
      persistent: replica.persistent,
      ...(replica.persistent ? {} : { reason: 'No system keychain: the offline cache is kept in memory only and nothing is written to disk.' }),
      fetchedAt,
      capacityCount: count,
      discarded: replica.discarded,
      ...(unreadable ? { unreadable } : {}),
    };
  }

  /**
   * Opens the last user's replica of a profile for review without signing in.
   * Only possible when that user's key is in this computer's keychain.
   */
  async enterOffline(profileId: string): Promise<CacheStatus> {
    // Signed in: working offline by choice over this session's replica (in memory when there is no keychain).
    const session = this.deps.session.status();
    const signedInHere = session.signedIn && session.profileId === profileId ? session.username : undefined;
    const username = signedInHere ?? this.deps.lastUsername(profileId);
    if (!username || (!signedInHere && this.deps.secrets.status.kind === 'memory')) {
      throw new AppFailure({ kind: 'not-found', message: NO_COPY });
    }
    // Opened even when its key is gone from the keychain, so that a copy lost with its key is reported, not ignored.
    this.#offlineOwner = { profileId, username };
    const status = await this.status();
    // An unreadable copy is entered too: the user is then told what was lost, and nothing of it is shown.
    if (!status.fetchedAt.capacities && !status.unreadable) {
      this.#offlineOwner = null;
      throw new AppFailure({ kind: 'not-found', message: NO_COPY });
    }
    return status;
  }

  leaveOffline(): void {
    this.#offlineOwner = null;
  }

  /** Reviewing the replica without asking the service (no session, or offline by choice). */
  get reviewing(): boolean {
    return this.#offlineOwner !== null;
  }

  /**
   * Starts loading the replica's slim rows in the background (after sign-in,
   * at start), so that search and sort answer from memory before anyone asks.
   */
  warm(): void {
    this.#inBackground(this.verified().then((replica) => replica?.warm()));
  }

  /** Tracks work of the background until it ends (its failure is met where it arises). */
  #inBackground(work: Promise<unknown>): void {
    const tracked = work.catch(() => undefined).finally(() => this.#background.delete(tracked));
    this.#background.add(tracked);
  }

  /**
   * The activity entries this owner's replica kept before own data existed,
   * for their one move there; null when that replica is not the one open now
   * (asked again at the next opening of the own data).
   */
  async legacyActivity(owner: Owner): Promise<string[] | null> {
    const replica = await this.replica();
    // A replica in memory (the keychain did not answer just now) is not the file that holds them.
    if (!replica || !replica.persistent || !sameOwner(replica.owner, owner)) return null;
    return legacyActivity(replica);
  }

  /** Drops those entries from this owner's replica (their own data was removed at their request); nothing when it is not the one open. */
  async forgetLegacyActivity(owner: Owner): Promise<void> {
    const replica = await this.replica();
    if (replica && replica.persistent && sameOwner(replica.owner, owner)) await forgetLegacyActivity(replica);
  }

  /**
   * Removes the copy (the person's choice, at sign-out): a refresh under way is cancelled and waited for
   * first, so nothing it fetched is written back after the wipe.
   */
  async wipe(): Promise<CacheStatus> {
    await this.refresh.stoppedWhile(async () => (await this.replica())?.wipe());
    return this.status();
  }

  /**
   * Closes the open replica (at quit): its journal is folded into the file.
   * Not closing is safe too (the next start recovers the journal), only slower.
   */
  async close(): Promise<void> {
    this.#closed = true;
    // A refresh under way and every write-through stop writing first.
    await this.refresh.stop();
    // An opening under way (a keychain read, a key created, the file opened) lands first, then is closed with the rest.
    const opening = this.#opening?.replica.catch(() => null);
    this.#opening = null;
    const opened = await opening;
    const held = this.#held;
    this.#held = null;
    for (const replica of new Set([held, opened])) {
      if (!replica) continue;
      await replica.settled();
      await replica.close();
    }
    while (this.#background.size > 0) await Promise.all(this.#background);
  }
}
