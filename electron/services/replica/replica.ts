import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CapacityRow } from '../../../shared/api/readers.js';
import type { UnreadableCopy, UnreadableReason } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { Logger } from '../logging/file-logger.js';
import { markLaunch } from '../diagnostics/launch-marks.js';
import { adoptOlderFolder } from '../platform/older-owner-folder.js';
import { ownerFolder, type Owner } from '../platform/owner.js';
import { openKeyed } from '../platform/sqlcipher.js';
import { createDatabaseKey, readDatabaseKey } from '../secrets/database-key.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { CapacityReplicaDb, verifyReplicaFile, type ReplicaDbOptions } from './capacity-replica-db.js';
import { CapacityReplica } from './capacity-replica.js';
import { transientFailure, unreadableReason } from './replica-failure.js';
import type { SliceTurn } from './requests-first.js';
import {
  diskFingerprint,
  withFileAsSeen,
  holdsCopy,
  holdsOlderFormat,
  lastWrittenFromFiles,
  readCopyFacts,
  readUnreadableNote,
  removeUnreadableNote,
  REPLICA_FILE,
  writeCopyFacts,
  writeUnreadableNote,
} from './replica-facts.js';

/** The keychain service the replica keys are kept under (the word "cache" stays: keys already stored are found by it). */
export const REPLICA_KEY_SERVICE_PREFIX = 'Capacity Desk cache';

export function replicaKeyService(profileId: string): string {
  return `${REPLICA_KEY_SERVICE_PREFIX} (${profileId})`;
}

export interface ReplicaOptions {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly owner: Owner;
  /** Where a copy found unreadable is reported (one line, no contents, no secrets). */
  readonly logger?: Pick<Logger, 'warn'>;
  /** How long after the first screen (below) a copy opened at start has its pages all read. */
  readonly verifyDelayMs?: number;
  /**
   * Resolves once the person's first screen has been answered (the app: the overview's next answer, or a few
   * seconds); the check of every page of a copy just opened waits for it. By default nothing is waited for.
   */
  readonly afterFirstScreen?: () => Promise<void>;
  /** What the check of every page and the slim rows' load wait for before each slice (the requests first); nothing by default. */
  readonly sliceTurn?: SliceTurn;
  /**
   * How long opening the file waits for a lock another program holds before the read is answered "not readable
   * right now" (default BUSY_WAIT_MS, platform/sqlcipher.ts); a test of that answer need not sit through it.
   */
  readonly busyMs?: number;
}

/**
 * A start's first screen comes first; the check of every page follows it by this much, so the screen's paint
 * and the page's next calls are not slowed by it. Until then each page is still authenticated as it is read.
 */
const VERIFY_DELAY_MS = 1_500;

/**
 * The local replica of one user of one profile: one encrypted SQLite database
 * (SQLCipher, `replica.db` in the owner's folder) holding the capacity list as
 * rows and every other kind as records, each stamped with when it was
 * fetched. The key lives in the OS keychain; without a keychain the same
 * database lives in this process's memory and nothing is written to disk.
 *
 * A copy that cannot be read (key gone, a page failing authentication, a file
 * cut short or written by another version) is reported once, never served,
 * and replaced by the next sync.
 *
 * This module holds the key, the opening, the check of every page, the health
 * state (unreadable, epoch) and the two doors every access goes through:
 * `reading` and `writing`. What is read and written through them is in
 * replica-reads.ts and replica-writes.ts; whose replica is open, in
 * current-replica.ts.
 */
export class Replica {
  readonly owner: Owner;
  readonly dir: string;
  /** False when there is no keychain: the database is in memory only. */
  readonly persistent: boolean;
  /** Copies found unreadable (and removed) since this replica was opened. */
  discarded = 0;
  /**
   * Bumped whenever what is held in memory stops being trusted (the copy was
   * found unreadable, or its files changed on disk): anything derived from an
   * older epoch must be dropped, and a read that began in one is not served.
   */
  epoch = 0;
  readonly #key: Buffer | null;
  readonly #file: string | null;
  readonly #logger: Pick<Logger, 'warn'> | undefined;
  readonly #verifyDelayMs: number;
  readonly #busyMs: number | undefined;
  readonly #afterFirstScreen: () => Promise<void>;
  readonly #sliceTurn: SliceTurn | undefined;
  #open: CapacityReplica | null = null;
  /**
   * Set by close, for good: a read or write that was handed this replica before
   * it closed must not open its files again (they would outlive the close, or
   * be left open on a folder about to be removed).
   */
  #closed = false;
  /** While a wipe removes the folder: reads answer nothing and writes wait, so nothing opens the files it removes. */
  #wiping: Promise<void> | null = null;
  /**
   * While a copy found unreadable is closed, removed and replaced by its note: reads wait for it (then answer
   * nothing, and say why) and writes wait for it, so nothing opens the files being removed or answers from them.
   */
  #removing: Promise<void> | null = null;
  /**
   * While the copy is read in full after a change behind the app's back (revalidate): every read waits for its
   * outcome, so nothing is served from files not yet checked (the status once said "readable, 179 policies" of
   * a copy found damaged a moment later: the renderer went offline over it and never showed the notice).
   */
  #rechecking: Promise<void> | null = null;
  #unreadable: UnreadableCopy | null = null;
  /** The one report of the current unreadable copy, so parallel readers log it once. */
  #declaring: Promise<void> | null = null;
  /** The files on disk as of the last read or write; null when memory has nothing to vouch for. */
  #seen: string | null = null;
  /** Writes of ours under way: the disk is then changing by our hand, not behind our back. */
  #pendingWrites = 0;
  /** Checkpoints under way on the replica's thread: the files change by our hand until they settle. */
  readonly #checkpoints = new Set<Promise<unknown>>();
  /** Databases being closed (their checkpoint thread ending): the files change by our hand until they are. */
  readonly #closings = new Set<Promise<void>>();
  /** The read of every page under way, once it has begun (not while it waits for the first screen). */
  #checking: Promise<void> = Promise.resolve();
  /** Every write, one after another: a database has one writer. */
  #queue: Promise<void> = Promise.resolve();
  /** The background read of every page of a file just opened. */
  #verifying: Promise<void> = Promise.resolve();
  /** Per refresh under way, the policies written through since it began, as written (the last of each id). */
  readonly #writeThroughWatches = new Set<Map<string, CapacityRow>>();

  private constructor(options: ReplicaOptions, key: Buffer | null) {
    this.owner = options.owner;
    // The folder keeps the name versions before the replica gave it, so copies already on disk are found.
    this.dir = join(options.dataDir, 'cache', ownerFolder(options.owner));
    this.persistent = key !== null;
    this.#key = key;
    this.#file = key ? join(this.dir, REPLICA_FILE) : null;
    this.#logger = options.logger;
    this.#verifyDelayMs = options.verifyDelayMs ?? VERIFY_DELAY_MS;
    this.#busyMs = options.busyMs;
    this.#afterFirstScreen = options.afterFirstScreen ?? (() => Promise.resolve());
    this.#sliceTurn = options.sliceTurn;
    if (!key) this.#open = new CapacityReplica(CapacityReplicaDb.inMemory());
  }

  static async open(options: ReplicaOptions): Promise<Replica> {
    const service = replicaKeyService(options.owner.profileId);
    const key = await readDatabaseKey(options.secrets, service, options.owner.username);
    // No keychain, or it failed while answering (locked, Secret Service gone): "no key" then means
    // "unknown", and the copy on disk is still good for the next run. Leave it alone.
    if (key === 'memory') return new Replica(options, null);
    if (!key) {
      const fresh = await createDatabaseKey(options.secrets, service, options.owner.username);
      if (fresh === 'memory') return new Replica(options, null);
      const created = new Replica(options, fresh);
      created.#unreadable = await readUnreadableNote(created.dir);
      // A copy whose key is gone can never be read again: the user is told, then it is replaced.
      if (await holdsCopy(created.dir)) await created.#declareUnreadable('key-missing');
      return created;
    }
    // A copy kept under the folder name of the versions before cust16 (a profile id with a line break) is found.
    await adoptOlderFolder(join(options.dataDir, 'cache'), options.owner, (dir) => readsWithKey(join(dir, REPLICA_FILE), key));
    const opened = new Replica(options, key);
    opened.#unreadable = await readUnreadableNote(opened.dir);
    await removeTornTemps(opened.dir);
    // The encrypted files of the version before the database are not migrated: see docs/local-first.md.
    if (await holdsOlderFormat(opened.dir)) await opened.#declareUnreadable('incompatible');
    // A file held by another program just now is opened again by the first read, which then says why.
    await opened.#openExisting().catch((error: unknown) => {
      if (!(error instanceof AppFailure)) throw error;
    });
    return opened;
  }

  /**
   * Set when this owner's copy exists (or existed) but could not be read,
   * until a fresh copy of the capacity list is written.
   */
  get unreadable(): UnreadableCopy | null {
    return this.#unreadable;
  }

  /** Resolves when every write under way has landed (or failed), and every database closed here is. */
  async settled(): Promise<void> {
    await this.#queue.catch(() => undefined);
    await Promise.all(this.#checkpoints);
    await Promise.all(this.#closings);
  }

  /** Resolves once the pages of the file opened last have all been read (or the copy declared unreadable). */
  verified(): Promise<void> {
    return this.#verifying;
  }

  /**
   * Stops trusting what is open when the copy's files changed on disk behind
   * this app's back (a flipped byte, a truncation, a restore): the database is
   * opened again, so the next read authenticates its pages afresh.
   */
  async revalidate(): Promise<void> {
    // A check begun by another caller, or a copy being declared unreadable: its outcome is this caller's too.
    if (this.#rechecking || this.#removing) await this.#trustSettled();
    if (!this.#key || this.#seen === null || this.#pendingWrites > 0) return;
    const seen = this.#seen;
    const fingerprint = await diskFingerprint(this.dir);
    // A write of ours that started or finished meanwhile is not a change behind our back.
    if (fingerprint === seen || this.#seen !== seen || this.#pendingWrites > 0) return;
    void this.#closeReplica();
    this.#seen = null;
    this.epoch += 1;
    // Changed by something other than this app: every page is read before anything more is served from it.
    const rechecking = (async () => {
      await this.#openExisting('now');
      await this.#verifying;
    })();
    this.#rechecking = rechecking;
    try {
      await rechecking;
    } finally {
      if (this.#rechecking === rechecking) this.#rechecking = null;
    }
  }

  /** Resolves once no check after a change behind the app's back and no declaration of an unreadable copy is under way. */
  async #trustSettled(): Promise<void> {
    while (this.#rechecking || this.#removing) {
      await this.#rechecking?.catch(() => undefined);
      await this.#removing;
    }
  }

  /**
   * Called inside the write of a full refresh of the capacity list, after its
   * commit: the plain facts follow it, and a fresh list replaces whatever was
   * found unreadable before.
   */
  async freshListWritten(written: CapacityReplica, capacities: number): Promise<void> {
    // A copy closed meanwhile (found unreadable, wiped, reopened) is not the one written: nothing to say of it.
    if (!this.#file || this.#open !== written) return;
    // Written after the commit: a crash in between leaves facts one copy old, which only words a message.
    await writeCopyFacts(this.dir, { writtenAt: new Date().toISOString(), capacities });
    await removeUnreadableNote(this.dir);
    this.#unreadable = null;
    this.#declaring = null;
  }

  /**
   * Notes, from now until `stop`, the policies written through
   * (upsertCapacity), as written: a refresh started now keeps them so, since
   * the list page it read may be older than the service's answer to the
   * action. A first sync has no list to write them into yet: this is then
   * the only place they are kept until its commit.
   */
  watchWriteThroughs(): { readonly policies: ReadonlyMap<string, CapacityRow>; stop(): void } {
    const policies = new Map<string, CapacityRow>();
    this.#writeThroughWatches.add(policies);
    return { policies, stop: () => this.#writeThroughWatches.delete(policies) };
  }

  /** Told by each write-through of one policy, inside its write (before the refresh's, or after it). */
  wroteThrough(policy: CapacityRow): void {
    for (const policies of this.#writeThroughWatches) policies.set(policy.cidrId, policy);
  }

  /**
   * Counts a write under way outside the write queue (a streamed first sync's thread, replica-writes.ts) as
   * this app's own until `done` is called: the disk check does not take its changing files for a change
   * behind the app's back.
   */
  writingBeside(): { done(): void } {
    this.#pendingWrites += 1;
    let done = false;
    return {
      done: () => {
        if (!done) this.#pendingWrites -= 1;
        done = true;
      },
    };
  }

  wipe(): Promise<void> {
    const wiping = this.#wipe().finally(() => {
      if (this.#wiping === wiping) this.#wiping = null;
    });
    this.#wiping = wiping;
    return wiping;
  }

  async #wipe(): Promise<void> {
    await this.#queue.catch(() => undefined);
    // A declaration under way writes its note into the folder: it lands first, and goes with the folder.
    await this.#removing;
    this.#seen = null;
    this.epoch += 1;
    if (this.#file) {
      // Nothing of the database (its checkpoint thread, the read of every page) may write once the folder goes.
      await this.#closeReplica();
      await this.#quiet();
      await rm(this.dir, { recursive: true, force: true });
    } else {
      const open = this.#open;
      this.#open = new CapacityReplica(CapacityReplicaDb.inMemory());
      await open?.close();
    }
    // Wiped by the user's choice: there is nothing left to report either.
    this.#unreadable = null;
    this.#declaring = null;
  }

  /** Closes the database (the app quits, or another user signs in); in memory, its content goes with it. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue.catch(() => undefined);
    await this.#wiping;
    // The note of a copy found unreadable is written before the app goes (it is what the next start reports).
    await this.#removing;
    this.epoch += 1;
    const replica = this.#open;
    this.#open = null;
    await replica?.close();
    await this.#quiet();
  }

  /** Resolves once nothing started here touches the files: checkpoints, closings, and a read of every page (stopped by the epoch's move). */
  async #quiet(): Promise<void> {
    await this.#checking;
    await Promise.all(this.#checkpoints);
    await Promise.all(this.#closings);
  }

  /** The open replica for a read: opened from disk if need be; in memory, after a full refresh under way. */
  async opened(): Promise<CapacityReplica | null> {
    // Closed, or its folder being removed: there is no copy to read (and opening one would bring it back).
    if (this.#closed || this.#wiping || this.#removing) return null;
    if (!this.#file) {
      // One connection in memory: a refresh's rows are visible to it before they commit.
      while (this.#open?.db.writing) await this.#queue.catch(() => undefined);
      return this.#open;
    }
    if (!this.#open) await this.#openExisting();
    return this.#open;
  }

  /**
   * Runs a read against the replica. A read that meets a damaged page (SQLCipher
   * authenticates each one) or a file of another version declares the copy
   * unreadable and answers null; so does one whose epoch moved on meanwhile.
   */
  async reading<T>(use: (replica: CapacityReplica) => T | typeof incompatible): Promise<T | null> {
    // Files changed behind the app's back are served only once checked; a copy being declared unreadable, never.
    if (this.#rechecking || this.#removing) await this.#trustSettled();
    const replica = await this.opened();
    if (!replica) return null;
    const epoch = this.epoch;
    let answer: T | typeof incompatible;
    try {
      answer = use(replica);
    } catch (error) {
      await this.#failed(error);
      return null;
    }
    if (answer === incompatible) {
      // It opened with our key yet does not parse: another version wrote it.
      await this.#declareUnreadable('incompatible');
      return null;
    }
    if (epoch !== this.epoch || replica !== this.#open) return null;
    if (this.#file && this.#seen === null && this.#pendingWrites === 0) await this.#noteDiskState(epoch, 'read');
    return answer;
  }

  /**
   * Runs a write after the ones before it. A copy found damaged while writing
   * is declared unreadable and the write is done again on a fresh database
   * (`retry`), so a sync replaces a damaged copy.
   */
  writing(use: (replica: CapacityReplica) => void | Promise<void>, retry = true): Promise<void> {
    this.#pendingWrites += 1;
    const run = async () => {
      for (let attempt = 0; ; attempt += 1) {
        const replica = await this.#writable();
        try {
          await use(replica);
          break;
        } catch (error) {
          if (!unreadableReason(error, this.#file) || attempt > 0) throw error;
          await this.#failed(error);
          if (!retry) return;
        }
      }
      await this.#noteDiskState(this.epoch, 'write');
    };
    const next = this.#queue.catch(() => undefined).then(run);
    this.#queue = next.finally(() => {
      this.#pendingWrites -= 1;
    });
    return this.#queue;
  }

  async #writable(): Promise<CapacityReplica> {
    // A write queued while a wipe runs lands in the fresh copy after it, never in the folder being removed; one
    // queued while a copy found unreadable is removed, in the fresh database made after its note.
    await this.#wiping;
    await this.#removing;
    if (this.#closed) throw new AppFailure({ kind: 'cancelled', message: 'The local copy was closed; nothing was written.' });
    if (this.#open) return this.#open;
    const file = this.#file;
    const key = this.#key;
    if (!file || !key) {
      this.#open = new CapacityReplica(CapacityReplicaDb.inMemory());
      return this.#open;
    }
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.#open = new CapacityReplica(CapacityReplicaDb.open(file, key, this.#replicaOptions()));
    return this.#open;
  }

  /**
   * Opens the file on disk, if there is one, and reads all its pages in the background: at once when the
   * files changed behind the app's back, otherwise once the first screen has been answered (and its paint
   * has had verifyDelayMs), so a launch's first screen does not share the process with a read of every page.
   */
  async #openExisting(check: 'now' | 'after the first screen' = 'after the first screen'): Promise<void> {
    if (this.#closed || this.#wiping || this.#removing || !this.#file || !this.#key || this.#open || !existsSync(this.#file)) return;
    const file = this.#file;
    const key = this.#key;
    try {
      this.#open = new CapacityReplica(CapacityReplicaDb.open(file, key, this.#replicaOptions()));
      markLaunch('replica opened');
    } catch (error) {
      await this.#failed(error);
      return;
    }
    const epoch = this.epoch;
    const opened = this.#open;
    const stale = () => epoch !== this.epoch || opened !== this.#open;
    const waited = check === 'now' ? Promise.resolve() : this.#afterFirstScreen().then(() => delay(this.#verifyDelayMs));
    this.#verifying = waited
      .then(async () => {
        if (stale()) return;
        markLaunch('full check started');
        // The deferred check gives way to the person's requests; one after a change behind our back is waited
        // for by the read that found the change, so it takes its slices at once (a request would hold it).
        const checking = verifyReplicaFile(file, key, stale, check === 'now' ? undefined : this.#sliceTurn);
        // A close or wipe waits for it: its connection, closed last, would fold and delete the log files.
        this.#checking = checking.catch(() => undefined);
        await checking;
        markLaunch('full check ended');
      })
      .catch((error: unknown) => (epoch === this.epoch ? this.#failed(error) : undefined))
      // A check the file system refused for a moment is simply not done this time (it was logged).
      .catch(() => undefined);
  }

  /** Loads the slim rows of the list in the background, so search and sort answer from memory. */
  async warm(): Promise<void> {
    const open = await this.opened();
    if (open) await this.loadRows(open);
  }

  /** Loads the slim rows of the list in the background; a failure is met as any read's (the copy may be declared unreadable). */
  loadRows(replica: CapacityReplica): Promise<void> {
    return replica.loadInBackground(this.#sliceTurn).catch((error: unknown) => (replica === this.#open ? this.#failed(error) : undefined));
  }

  /** An error of a read or write: the copy is declared unreadable when it says the file cannot be trusted; anything else is thrown on. */
  async #failed(error: unknown): Promise<void> {
    if (transientFailure(error)) throw this.#unavailable();
    const reason = unreadableReason(error, this.#file);
    if (!reason) throw error;
    await this.#declareUnreadable(reason);
  }

  /**
   * The file system would not let the copy be read just now (another program
   * holds it, too many files open): that says nothing about the copy, so it is
   * neither declared unreadable nor touched; this read fails with a message
   * that says so, and the next one tries again.
   */
  #unavailable(): AppFailure {
    this.#logger?.warn('offline-cache', `offline copy ${basename(this.dir)} could not be read right now (the file system refused for a moment); it is left as it is`);
    return new AppFailure({
      kind: 'internal',
      message: 'Your offline copy could not be read right now (another program may be using its files). Nothing was changed; try again in a moment.',
    });
  }

  /**
   * The copy cannot be read: from this moment nothing of it is served (the
   * database is closed and the epoch moves on before anything else), the user
   * can be told what was lost, and one line is logged.
   *
   * Its files are then deleted rather than kept aside: they can never be
   * opened by this app (so they have no use for diagnosis that the reason and
   * the logged facts do not cover), keeping them would report the same copy
   * again at every start, and a copy that failed authentication may have been
   * tampered with. The note that replaces them holds only the facts shown to
   * the user, and stays until a fresh copy is written.
   */
  #declareUnreadable(reason: UnreadableReason): Promise<void> {
    void this.#closeReplica();
    this.#seen = null;
    this.epoch += 1;
    if (!this.#declaring) {
      const declaring = this.#recordUnreadable(reason);
      this.#declaring = declaring;
      const removing = declaring
        .catch(() => undefined)
        .finally(() => {
          if (this.#removing === removing) this.#removing = null;
        });
      this.#removing = removing;
    }
    return this.#declaring;
  }

  async #recordUnreadable(reason: UnreadableReason): Promise<void> {
    const facts = await readCopyFacts(this.dir);
    const note: UnreadableCopy = {
      state: 'unreadable',
      reason,
      lastWrittenAt: facts?.writtenAt ?? (await lastWrittenFromFiles(this.dir)),
      recordsLost: facts?.capacities ?? null,
      detectedAt: new Date().toISOString(),
    };
    this.#unreadable = note;
    this.discarded += 1;
    this.#logger?.warn(
      'offline-cache',
      `offline copy ${basename(this.dir)} could not be read (${reason}); it held ${note.recordsLost ?? 'an unknown number of'} policies, ` +
        `last written ${note.lastWrittenAt ?? 'at an unknown time'}; nothing from it is served, its files are removed, a fresh sync is needed`,
    );
    await this.#closeReplica();
    await Promise.all(this.#closings);
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeUnreadableNote(this.dir, note);
  }

  /** Takes the open database out of use at once; resolves when it is closed (tracked, so close and wipe wait for it). */
  #closeReplica(): Promise<void> {
    const replica = this.#open;
    this.#open = this.#file ? null : replica;
    if (!this.#file || !replica) return Promise.resolve();
    const closing = replica
      .close()
      .catch((error: unknown) => this.#logger?.warn('offline-cache', `offline copy ${basename(this.dir)} could not be closed`, error))
      .finally(() => this.#closings.delete(closing));
    this.#closings.add(closing);
    return closing;
  }

  #replicaOptions(): ReplicaDbOptions {
    return {
      busyMs: this.#busyMs,
      warn: (message) => (this.#logger ? this.#logger.warn('offline-cache', message) : console.warn(message)),
      // Counted as a write of ours until it settles, so the disk check does not take it for a change behind our back.
      onCheckpoint: (done) => {
        this.#pendingWrites += 1;
        const epoch = this.epoch;
        const tracked = done.then(() => this.#noteDiskState(epoch, 'checkpoint')).finally(() => {
          this.#pendingWrites -= 1;
          this.#checkpoints.delete(tracked);
        });
        this.#checkpoints.add(tracked);
      },
    };
  }

  /**
   * Remembers the files on disk as matching what is open, unless trust moved on meanwhile. A commit of ours
   * writes the log only (the database file is written by checkpoints alone, WAL mode): after one, the file is
   * remembered as it was, so a change made to it by anything else meanwhile is still found by the next check.
   */
  async #noteDiskState(epoch: number, by: 'read' | 'write' | 'checkpoint'): Promise<void> {
    if (!this.#file) return;
    const fingerprint = await diskFingerprint(this.dir);
    if (epoch !== this.epoch) return;
    this.#seen = by === 'write' && this.#seen !== null ? withFileAsSeen(fingerprint, this.#seen, this.#file) : fingerprint;
  }
}

/** Temp files a write of the plain facts or the note left when the app was killed mid-write. */
async function removeTornTemps(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.endsWith('.tmp')).map((name) => rm(join(dir, name), { force: true })));
}

/** A pause that does not keep the process alive. */
function delay(ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** What a read answers when the stored value is not in this version's shape. */
export const incompatible = Symbol('incompatible');

/** Whether a copy's file is there and reads with this key (another owner's key fails at the first page). */
function readsWithKey(file: string, key: Buffer): boolean {
  if (!existsSync(file)) return false;
  try {
    openKeyed(file, key, 256).close();
    return true;
  } catch {
    return false;
  }
}
