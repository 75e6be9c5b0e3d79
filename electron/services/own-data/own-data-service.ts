import type { z } from 'zod';
import type { ActivityList } from '../../../shared/ipc/activity.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { ActivityAction, ActivityEntry, ActivityPolicyKind } from '../../../shared/own-data/activity.js';
import type { OwnRecordKind } from '../../../shared/own-data/records.js';
import type { OwnDataStatus } from '../../../shared/own-data/status.js';
import type { Logger } from '../logging/file-logger.js';
import type { Owner } from '../platform/owner.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { OwnDataStore, type OwnRecords } from './own-data-store.js';
import { tupleKey } from '../../../shared/format/tuple-key.js';

export interface OwnDataDeps {
  readonly dataDir: string;
  readonly secrets: SecretStore;
  /** Whose own data the views see: the signed-in user, or the one whose copy is reviewed offline; null when neither. */
  readonly owner: () => Owner | null;
  readonly logger?: Pick<Logger, 'warn'>;
  /** The activity entries an owner's replica holds from before own data existed (moved once); null when unreadable just now. */
  readonly legacyActivity?: (owner: Owner) => Promise<readonly string[] | null>;
  /** Drops those entries from the owner's replica once their own data is removed (else the next opening moves them in again). */
  readonly forgetLegacyActivity?: (owner: Owner) => Promise<void>;
}

const REMOVED = 'Your own data was removed at your request: nothing more is kept until you sign in again.';

function ownerId(owner: Owner): string {
  return tupleKey(owner.profileId, owner.username);
}

/**
 * The own data of whoever the views are for, and of whoever an action's
 * answer belongs to (an answer that comes after a switch of user is recorded
 * in the own data of the user who sent it). Each owner's store stays open for
 * the run once opened: it is small, and in memory (no keychain) it must not
 * vanish when someone else signs in for a moment.
 */
export class OwnDataService {
  readonly #deps: OwnDataDeps;
  readonly #stores = new Map<string, Promise<OwnDataStore>>();
  /** Set by close: no store is opened after it (a deferred opening would write into the data folder). */
  #closed = false;
  /**
   * Owners whose own data was removed at their request, until they are no longer the owner (signed out):
   * the removal under way, after which their own data is kept in memory only. A store opened during the
   * removal would read the files being deleted and keep them alive, or write into the folder being removed.
   */
  readonly #removed = new Map<string, Promise<void>>();
  /**
   * Removals still under way, kept past their owner's sign-out: an opening of that owner's files (signed in again
   * meanwhile) waits for the removal, or it would take the key about to be deleted and write into the folder removed.
   */
  readonly #removing = new Map<string, Promise<void>>();

  constructor(deps: OwnDataDeps) {
    this.#deps = deps;
  }

  /** The own data of the current owner; null when no one is signed in or reviewed. */
  async current(): Promise<OwnDataStore | null> {
    const owner = this.#deps.owner();
    return owner ? this.of(owner) : null;
  }

  /** The own data of one owner, opened once (parallel callers share the opening). */
  of(owner: Owner): Promise<OwnDataStore> {
    const id = ownerId(owner);
    if (this.#closed) return Promise.reject(new AppFailure({ kind: 'internal', message: 'Capacity Desk is closing; nothing more is written now.' }));
    let store = this.#stores.get(id);
    const removal = this.#removed.get(id);
    if (!store && removal) {
      const logger = this.#deps.logger;
      store = removal.then(() => OwnDataStore.inMemory(owner, REMOVED, logger));
      this.#stores.set(id, store);
    } else if (!store) {
      const legacy = this.#deps.legacyActivity;
      const open = () =>
        OwnDataStore.open({
          dataDir: this.#deps.dataDir,
          secrets: this.#deps.secrets,
          owner: { profileId: owner.profileId, username: owner.username },
          ...(this.#deps.logger ? { logger: this.#deps.logger } : {}),
          ...(legacy ? { legacyActivity: () => legacy(owner) } : {}),
        });
      const removing = this.#removing.get(id);
      store = removing ? removing.then(open) : open();
      // A failed opening (the file held by another program just now) is tried again by the next caller.
      const opening = store;
      void opening.catch(() => {
        if (this.#stores.get(id) === opening) this.#stores.delete(id);
      });
      this.#stores.set(id, opening);
    }
    return store;
  }

  /** The records of one kind of the current owner; fails with a plain message when no one is signed in. */
  async records<Schema extends z.ZodType>(kind: OwnRecordKind, schema: Schema): Promise<OwnRecords<z.output<Schema>>> {
    const store = await this.current();
    if (!store) throw new AppFailure({ kind: 'unauthorized', message: 'Sign in (or open an offline copy) to see your own data.' });
    return store.records(kind, schema);
  }

  /** Appends an entry to the activity record of the user and environment that sent the action. */
  async appendActivity(entry: ActivityEntry): Promise<void> {
    await this.appendActivities([entry]);
  }

  /** Appends entries to the activity records of whoever sent each action, one transaction per owner. */
  async appendActivities(entries: readonly ActivityEntry[]): Promise<void> {
    const byOwner = new Map<string, ActivityEntry[]>();
    for (const entry of entries) {
      const key = JSON.stringify([entry.profileId, entry.username]);
      const owned = byOwner.get(key);
      if (owned) owned.push(entry);
      else byOwner.set(key, [entry]);
    }
    for (const owned of byOwner.values()) {
      const store = await this.of({ profileId: owned[0]!.profileId, username: owned[0]!.username });
      await store.appendActivities(owned);
    }
  }

  /** A policy's activity record of the current owner, newest first, and whether it outlives this session. */
  async activity(policyKind: ActivityPolicyKind, cidrId: string): Promise<ActivityList> {
    const store = await this.current();
    if (!store) return { entries: [], persistent: this.#deps.secrets.status.kind !== 'memory' };
    return { entries: await store.activity(policyKind, cidrId), persistent: store.persistent };
  }

  /** The activity records of many policies of one kind in one read (a customer page's), newest first; none when no one is signed in. */
  async activityOfPolicies(policyKind: ActivityPolicyKind, cidrIds: readonly string[]): Promise<ActivityEntry[]> {
    const store = await this.current();
    return store && cidrIds.length > 0 ? store.activityOfPolicies(policyKind, cidrIds) : [];
  }

  /** Every entry of one action on one kind of policy in the current owner's record, newest first; none when no one is signed in. */
  async activityOfAction(policyKind: ActivityPolicyKind, action: ActivityAction): Promise<ActivityEntry[]> {
    const store = await this.current();
    return store ? store.activityOfAction(policyKind, action) : [];
  }

  async status(): Promise<OwnDataStatus | null> {
    return (await this.current())?.status() ?? null;
  }

  /** Deletes the current owner's own data and its key: only on the person's explicit request. */
  async wipe(): Promise<void> {
    const owner = this.#deps.owner();
    if (!owner) return;
    const store = await this.of(owner);
    const id = ownerId(owner);
    // Before anything else can ask: every later caller waits for the removal, then gets a store in memory.
    this.#stores.delete(id);
    const forget = this.#deps.forgetLegacyActivity;
    // The copy is kept (a separate choice), but the activity record an older version kept in it is own data too.
    const removal = store.wipe(this.#deps.secrets).then(() => forget?.(owner));
    const settled = removal.catch(() => undefined);
    this.#removed.set(id, settled);
    this.#removing.set(id, settled);
    void settled.then(() => {
      if (this.#removing.get(id) === settled) this.#removing.delete(id);
    });
    await removal;
  }

  /**
   * The session changed: owners whose own data was removed and who are no longer the owner (signed out)
   * get their files again at their next sign-in; the memory store of the moment in between is dropped.
   */
  ownerChanged(): void {
    const current = this.#deps.owner();
    for (const id of [...this.#removed.keys()]) {
      if (current && ownerId(current) === id) continue;
      this.#removed.delete(id);
      const store = this.#stores.get(id);
      this.#stores.delete(id);
      void store?.then((memory) => memory.close()).catch(() => undefined);
    }
  }

  /** Closes every store (at quit), after the writes under way. */
  async close(): Promise<void> {
    this.#closed = true;
    const stores = [...this.#stores.values()];
    this.#stores.clear();
    await Promise.allSettled(stores.map(async (store) => (await store).close()));
  }
}
