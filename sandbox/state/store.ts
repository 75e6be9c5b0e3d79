import type { CapacityConfiguration, CapacityPolicy, DrEvent } from '../../shared/api/capacity.js';
import { DEFAULT_CONFIGURATION, OPERATING_STATE, TERMINATION_EVENT_TYPE } from '../../shared/api/contract-choices.js';
import type { SortOrder } from '../../shared/api/paging.js';
import { cancellationFee } from './fees.js';
import { operatingStateFor } from './lifecycle.js';
import type { LinkedAccount } from '../../shared/api/accounts.js';
import type { SandboxUser } from '../accounts.js';
import type { CapacityEntry, CyberEntry, Dataset } from './model.js';
import { StatusIndex, pageOfItems } from './status-index.js';
import { Timeline, type TimedChange } from './timeline.js';

/** The changes made since seeding: with the seed it rebuilds the state exactly. */
export interface StoreOverlay {
  /** Time-driven changes up to this instant have happened. */
  readonly settledThroughMs: number;
  readonly nextEventId: number;
  readonly capacities: readonly CapacityPolicy[];
  readonly cyber: readonly CyberChange[];
  /** Linked accounts given another name (a test control); absent in files written before it. */
  readonly accountNames?: readonly AccountName[] | undefined;
}

/** A linked account's name as a rename left it, per owner. */
export interface AccountName {
  readonly owner: string;
  readonly accountId: string;
  readonly accountName: string;
}

export interface CyberChange {
  readonly cidrId: string;
  readonly policyStatus: string;
  readonly disasterRecoveryEvents: readonly DrEvent[];
  readonly terminationEventId: number | null;
}

export interface ListPage<T> {
  readonly items: readonly T[];
  readonly total: number;
}

export interface ListOptions {
  readonly page: number;
  readonly pageSize: number;
  readonly sortOrder: SortOrder;
}

export type TerminateOutcome = { readonly created: true; readonly id: number } | { readonly created: false };

/** Configure's changes, with the wire's singular `securityGroup`. */
export interface ConfigurationChanges {
  readonly vpc?: string | undefined;
  readonly securityGroup?: string | undefined;
  readonly amiImage?: string | undefined;
  readonly sshPairKey?: string | undefined;
  readonly ebsVolumeSize?: number | undefined;
}

/**
 * All policies and the state machine. Every method is synchronous, so each
 * change is atomic with respect to other requests (the event loop runs one at
 * a time): that is what makes terminate happen exactly once.
 */
export class SandboxStore {
  private readonly capacityById = new Map<string, CapacityEntry>();
  private readonly capacityByOwner = new Map<string, StatusIndex<CapacityEntry>>();
  private readonly cyberById = new Map<string, CyberEntry>();
  private readonly cyberByCustomer = new Map<string, StatusIndex<CyberEntry>>();
  private readonly timeline = new Timeline();
  private readonly changedCapacity = new Set<string>();
  private readonly changedCyber = new Set<string>();
  /** Renamed linked accounts: `owner\naccountId` -> name. */
  private readonly accountNames = new Map<string, AccountName>();
  private settledThroughMs: number;
  private nextEventId: number;
  /** Bumped by every change a client asked for; persistence compares it. */
  private revisionCounter = 0;
  /** Each user's linked accounts as seeded (by username); a user not in it has their own. */
  private readonly seededAccounts: ReadonlyMap<string, readonly LinkedAccount[]>;

  constructor(dataset: Dataset, nowMs: number, overlay?: StoreOverlay) {
    this.nextEventId = dataset.nextEventId;
    this.seededAccounts = dataset.linkedAccounts ?? new Map();
    this.settledThroughMs = Number.NEGATIVE_INFINITY;
    for (const entry of dataset.capacities) this.capacityById.set(entry.policy.cidrId, entry);
    for (const entry of dataset.cyber) this.cyberById.set(entry.view.policyDetails.cidrId, entry);
    if (overlay) this.applyOverlay(overlay);
    for (const entry of dataset.capacities) {
      indexFor(this.capacityByOwner, entry.owner).add(entry, entry.policy.policyStatus);
      this.scheduleCapacity(entry);
    }
    for (const entry of dataset.cyber) {
      indexFor(this.cyberByCustomer, entry.customerId).add(entry, entry.view.policyDetails.policyStatus);
      this.scheduleCyber(entry);
    }
    if (overlay) this.settle(overlay.settledThroughMs);
    this.settle(nowMs);
  }

  get revision(): number {
    return this.revisionCounter;
  }

  get capacityCount(): number {
    return this.capacityById.size;
  }

  get cyberCount(): number {
    return this.cyberById.size;
  }

  /** Applies every time-driven change due by `nowMs`. Cheap when nothing is due. */
  settle(nowMs: number): void {
    for (let change = this.timeline.popDue(nowMs); change; change = this.timeline.popDue(nowMs)) this.applyTimed(change);
    if (nowMs > this.settledThroughMs) this.settledThroughMs = nowMs;
  }

  /** The caller's policy; another user's answers exactly like a missing one. */
  capacityOf(owner: string, cidrId: string): CapacityEntry | undefined {
    const entry = this.capacityById.get(cidrId);
    return entry && entry.owner === owner ? entry : undefined;
  }

  cyberOf(owner: string, cidrId: string): CyberEntry | undefined {
    const entry = this.cyberById.get(cidrId);
    return entry && entry.owner === owner ? entry : undefined;
  }

  listCapacities(owner: string, status: string | undefined, options: ListOptions): ListPage<CapacityEntry> {
    const items = this.capacityByOwner.get(owner)?.items(status) ?? [];
    return { items: pageOfItems(items, options.page, options.pageSize, options.sortOrder), total: items.length };
  }

  listCyber(
    customerId: string,
    status: string | undefined,
    nameContains: string | undefined,
    options: ListOptions,
  ): ListPage<CyberEntry> {
    let items = this.cyberByCustomer.get(customerId)?.items(status) ?? [];
    if (nameContains) {
      // Cyber lists are per customer and small, so a scan is fine here.
      const needle = nameContains.toLowerCase();
      items = items.filter((entry) => entry.nameLower.includes(needle));
    }
    return { items: pageOfItems(items, options.page, options.pageSize, options.sortOrder), total: items.length };
  }

  /** The record's JSON, encoded once per version of the record. */
  capacityJson(entry: CapacityEntry): Buffer {
    entry.json ??= Buffer.from(JSON.stringify(entry.policy));
    return entry.json;
  }

  /** The describe view's JSON, rendered once per version of the record. */
  capacityViewJson(entry: CapacityEntry, render: (policy: CapacityPolicy) => unknown): Buffer {
    entry.viewJson ??= Buffer.from(JSON.stringify(render(entry.policy)));
    return entry.viewJson;
  }

  purchase(entry: CapacityEntry, nowMs: number): CapacityPolicy {
    const previous = entry.policy.capacityConfiguration;
    this.replaceCapacity(entry, {
      ...entry.policy,
      policyStatus: 'ACTIVE',
      policyOperatingState: OPERATING_STATE.queuedForStart,
      capacityConfiguration: {
        launchDateTime: previous.launchDateTime,
        endDateTime: previous.endDateTime,
        autoRenewalEnabled: previous.autoRenewalEnabled,
        frequency: previous.frequency,
        ...DEFAULT_CONFIGURATION,
      },
    });
    if (nowMs >= entry.launchMs) this.settleEntryStart(entry);
    this.scheduleCapacity(entry);
    return entry.policy;
  }

  /** Cancels and returns the fee charged. */
  cancel(entry: CapacityEntry, nowMs: number): number {
    const fee = cancellationFee(entry.policy.pricing.ourPrice, entry.launchMs, entry.endMs, nowMs);
    this.replaceCapacity(entry, {
      ...entry.policy,
      policyStatus: 'CANCELED',
      policyOperatingState: OPERATING_STATE.stopped,
    });
    return fee;
  }

  configure(entry: CapacityEntry, changes: ConfigurationChanges): CapacityPolicy {
    const current = entry.policy.capacityConfiguration;
    const next: CapacityConfiguration = {
      ...current,
      vpc: changes.vpc ?? current.vpc,
      securityGroups: changes.securityGroup ?? current.securityGroups,
      amiImage: changes.amiImage ?? current.amiImage,
      sshPairKey: changes.sshPairKey ?? current.sshPairKey,
      ebsVolumeSize: changes.ebsVolumeSize ?? current.ebsVolumeSize,
    };
    this.replaceCapacity(entry, { ...entry.policy, capacityConfiguration: next });
    return entry.policy;
  }

  setAutoRenewal(entry: CapacityEntry, enabled: boolean, frequency: string | null | undefined): void {
    this.replaceCapacity(entry, {
      ...entry.policy,
      capacityConfiguration: {
        ...entry.policy.capacityConfiguration,
        autoRenewalEnabled: enabled,
        frequency: enabled ? (frequency ?? null) : null,
      },
    });
  }

  /** Creates the termination event the first time only. */
  terminate(entry: CyberEntry, nowMs: number): TerminateOutcome {
    if (entry.terminationEventId !== null) return { created: false };
    const id = this.nextEventId++;
    entry.terminationEventId = id;
    entry.view = {
      ...entry.view,
      disasterRecoveryEvents: [
        ...entry.view.disasterRecoveryEvents,
        {
          id,
          type: TERMINATION_EVENT_TYPE,
          createdDate: new Date(nowMs).toISOString(),
          description: 'Disaster-recovery termination event',
        },
      ],
    };
    this.changedCyber.add(entry.view.policyDetails.cidrId);
    this.revisionCounter++;
    return { created: true, id };
  }

  /** A test control: gives a capacity policy another name (tests of hostile names from the service). */
  renameCapacity(cidrId: string, policyName: string): CapacityPolicy | undefined {
    const entry = this.capacityById.get(cidrId);
    if (!entry) return undefined;
    this.replaceCapacity(entry, { ...entry.policy, policyName });
    return entry.policy;
  }

  /** A user's linked accounts, with the names renames gave them. */
  linkedAccountsOf(user: SandboxUser): LinkedAccount[] {
    return (this.seededAccounts.get(user.username) ?? user.linkedAccounts).map((account) => {
      const renamed = this.accountNames.get(`${user.username}\n${account.accountId}`);
      return renamed ? { ...account, accountName: renamed.accountName } : account;
    });
  }

  /**
   * A test control: a linked account gets another name, and every capacity
   * policy held in it names it so (as the service's `cspAccountName` follows
   * the account's name). Undefined when the user has no such account.
   */
  renameAccount(user: SandboxUser, accountId: string, accountName: string): LinkedAccount | undefined {
    const account = this.linkedAccountsOf(user).find((candidate) => candidate.accountId === accountId);
    if (!account) return undefined;
    for (const entry of this.capacityByOwner.get(user.username)?.items(undefined) ?? []) {
      if (entry.policy.cspAccountName === account.accountName) this.replaceCapacity(entry, { ...entry.policy, cspAccountName: accountName });
    }
    this.accountNames.set(`${user.username}\n${accountId}`, { owner: user.username, accountId, accountName });
    this.revisionCounter++;
    return { ...account, accountName };
  }

  overlay(): StoreOverlay {
    const capacities: CapacityPolicy[] = [];
    for (const id of this.changedCapacity) {
      const entry = this.capacityById.get(id);
      if (entry) capacities.push(entry.policy);
    }
    const cyber: CyberChange[] = [];
    for (const id of this.changedCyber) {
      const entry = this.cyberById.get(id);
      if (entry)
        cyber.push({
          cidrId: id,
          policyStatus: entry.view.policyDetails.policyStatus,
          disasterRecoveryEvents: entry.view.disasterRecoveryEvents,
          terminationEventId: entry.terminationEventId,
        });
    }
    return { settledThroughMs: this.settledThroughMs, nextEventId: this.nextEventId, capacities, cyber, accountNames: [...this.accountNames.values()] };
  }

  private applyOverlay(overlay: StoreOverlay): void {
    this.nextEventId = Math.max(this.nextEventId, overlay.nextEventId);
    for (const name of overlay.accountNames ?? []) this.accountNames.set(`${name.owner}\n${name.accountId}`, name);
    for (const policy of overlay.capacities) {
      const entry = this.capacityById.get(policy.cidrId);
      if (!entry) continue;
      entry.policy = policy;
      entry.json = undefined;
      entry.viewJson = undefined;
      this.changedCapacity.add(policy.cidrId);
    }
    for (const change of overlay.cyber) {
      const entry = this.cyberById.get(change.cidrId);
      if (!entry) continue;
      entry.view = {
        ...entry.view,
        policyDetails: { ...entry.view.policyDetails, policyStatus: change.policyStatus },
        disasterRecoveryEvents: [...change.disasterRecoveryEvents],
      };
      entry.terminationEventId = change.terminationEventId;
      this.changedCyber.add(change.cidrId);
    }
  }

  /** A change a client asked for: remembered for persistence. */
  private replaceCapacity(entry: CapacityEntry, policy: CapacityPolicy): void {
    this.swapCapacity(entry, policy);
    this.changedCapacity.add(policy.cidrId);
    this.revisionCounter++;
  }

  private swapCapacity(entry: CapacityEntry, policy: CapacityPolicy): void {
    const from = entry.policy.policyStatus;
    entry.policy = policy;
    entry.json = undefined;
    entry.viewJson = undefined;
    this.capacityByOwner.get(entry.owner)?.move(entry, from, policy.policyStatus);
  }

  private settleEntryStart(entry: CapacityEntry): void {
    this.swapCapacity(entry, { ...entry.policy, policyOperatingState: OPERATING_STATE.running });
  }

  private scheduleCapacity(entry: CapacityEntry): void {
    const id = entry.policy.cidrId;
    switch (entry.policy.policyStatus) {
      case 'READY_FOR_PURCHASE':
        this.timeline.push({ atMs: entry.launchMs, kind: 'capacity-expire', id });
        break;
      case 'ACTIVE':
        if (entry.policy.policyOperatingState !== OPERATING_STATE.running)
          this.timeline.push({ atMs: entry.launchMs, kind: 'capacity-start', id });
        this.timeline.push({ atMs: entry.endMs, kind: 'capacity-complete', id });
        break;
      default:
        break;
    }
  }

  private scheduleCyber(entry: CyberEntry): void {
    if (entry.view.policyDetails.policyStatus === 'ACTIVE')
      this.timeline.push({ atMs: entry.endMs, kind: 'cyber-complete', id: entry.view.policyDetails.cidrId });
  }

  /** Time-driven changes are not recorded in the overlay: settling replays them. */
  private applyTimed(change: TimedChange): void {
    if (change.kind === 'cyber-complete') {
      const entry = this.cyberById.get(change.id);
      if (!entry || entry.view.policyDetails.policyStatus !== 'ACTIVE') return;
      const from = entry.view.policyDetails.policyStatus;
      entry.view = { ...entry.view, policyDetails: { ...entry.view.policyDetails, policyStatus: 'COMPLETED' } };
      this.cyberByCustomer.get(entry.customerId)?.move(entry, from, 'COMPLETED');
      return;
    }
    const entry = this.capacityById.get(change.id);
    if (!entry) return;
    const status = entry.policy.policyStatus;
    if (change.kind === 'capacity-expire' && status === 'READY_FOR_PURCHASE') {
      this.swapCapacity(entry, {
        ...entry.policy,
        policyStatus: 'EXPIRED',
        policyOperatingState: operatingStateFor('EXPIRED', entry.launchMs, change.atMs),
      });
    } else if (change.kind === 'capacity-start' && status === 'ACTIVE') {
      if (entry.policy.policyOperatingState !== OPERATING_STATE.running) this.settleEntryStart(entry);
    } else if (change.kind === 'capacity-complete' && status === 'ACTIVE') {
      this.swapCapacity(entry, {
        ...entry.policy,
        policyStatus: 'COMPLETED',
        policyOperatingState: OPERATING_STATE.stopped,
      });
    }
  }
}

function indexFor<T extends { readonly seq: number }>(map: Map<string, StatusIndex<T>>, key: string): StatusIndex<T> {
  let index = map.get(key);
  if (!index) {
    index = new StatusIndex<T>();
    map.set(key, index);
  }
  return index;
}
