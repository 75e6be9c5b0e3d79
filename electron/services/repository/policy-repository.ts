import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CapacityView, type CapacityPolicy } from '../../../shared/api/capacity.js';
import { CyberListItem, type CyberListInput } from '../../../shared/api/cyber.js';
import { PAGING } from '../../../shared/api/contract-choices.js';
import { completeAccounts, completeCapacityView, completeCyberView, type CapacityDetail, type CapacityRow, type CyberDetail } from '../../../shared/api/readers.js';
import { LocalCapacityQuery } from '../../../shared/ipc/offline.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type {
  CapacityWindow,
  Origin,
  SourcedAccounts,
  SourcedCapacityDetail,
  SourcedCyberDetail,
  SourcedCyberPage,
  SourcedOverview,
  ServiceCheck,
} from '../../../shared/ipc/sourced.js';
import type { CurrentReplica } from '../replica/current-replica.js';
import { capacitiesFetchedAt, capacityOverview, capacityRow, readAccounts, readCyberListKept, readRecord } from '../replica/replica-reads.js';
import { addCyberPage, keepCyberItemAsViewed, upsertCapacity, writeKind, writeRecord } from '../replica/replica-writes.js';
import type { PolicyFact } from '../money/money-lock.js';
import { terminationShown } from '../money/money-actions.js';
import type { OverviewService } from '../overview/overview-service.js';
import type { SessionService } from '../session/session-service.js';
import { queryCyberItems } from './cyber-query.js';
import { policyFromView } from './policy-from-view.js';
import { ServiceBreaker } from './service-breaker.js';

export interface PolicyRepositoryDeps {
  readonly session: Pick<SessionService, 'status' | 'authorized'>;
  readonly replica: CurrentReplica;
  readonly overview: Pick<OverviewService, 'summary' | 'changed'>;
  /** Every fresh read of a policy may settle a money action whose outcome was unknown. */
  readonly observe: (cidrId: string, fact: PolicyFact) => void;
  /** Where a failed write-through is reported: it never fails the answer. */
  readonly report: (error: unknown) => void;
  readonly now?: () => Date;
  readonly breaker?: ServiceBreaker;
  /** Awaited between two of the overview count's statements after the event loop's turn: the first page loading (page-loading.ts). */
  readonly pageLoaded?: () => Promise<void>;
}

/**
 * The one data layer the views read through. The capacity list and the
 * overview come from the encrypted local replica once it holds the list
 * (search and sort over every column, at once, online or not); before the
 * first sync completes the list pages the service, as it always did, and the
 * answer says so. Details, linked accounts and DR lists are read live when
 * the service can be reached and written through to the replica, which
 * answers them when it cannot. Every answer carries its source and when it
 * was fetched.
 */
export class PolicyRepository {
  readonly #deps: PolicyRepositoryDeps;
  readonly #breaker: ServiceBreaker;

  constructor(deps: PolicyRepositoryDeps) {
    this.#deps = deps;
    this.#breaker = deps.breaker ?? new ServiceBreaker();
  }

  async capacityList(input: LocalCapacityQuery): Promise<CapacityWindow> {
    const query = LocalCapacityQuery.parse(input);
    const local = await this.#deps.replica.queryCapacities(query);
    const unreadable = local.unreadable ? { unreadable: local.unreadable } : {};
    if (local.fetchedAt && !local.unreadable) {
      // What the refresh could not keep is said once, with the first rows.
      const skipped = query.offset === 0 ? local.leftOut : [];
      return { rows: local.rows, offset: local.offset, total: local.total, origin: replica(local.fetchedAt), local: true, skipped };
    }
    if (this.#localOnly()) {
      return { rows: [], offset: query.offset, total: 0, origin: replica(local.fetchedAt ?? this.#now()), local: true, skipped: [], ...unreadable };
    }
    // Before the first sync: the service's own pages, filtered by status and ordered by creation only.
    const pageSize = Math.min(query.limit, PAGING.maxPageSize);
    const page = Math.floor(query.offset / pageSize) + 1;
    const answer = await this.#servicePage(query, page, pageSize).catch((error: unknown) => {
      // The copy could not be read and the service cannot be reached: nothing to show, and the notice says why.
      if (local.unreadable && unreachable(error)) return null;
      throw error;
    });
    if (!answer) {
      const origin = { ...replica(local.fetchedAt ?? this.#now()), serviceUnreachable: true };
      return { rows: [], offset: query.offset, total: 0, origin, local: true, skipped: [], ...unreadable };
    }
    for (const policy of answer.data) this.#deps.observe(policy.cidrId, { kind: 'capacity', status: policy.policyStatus ?? null });
    return {
      rows: answer.data,
      offset: (answer.page - 1) * answer.pageSize,
      total: answer.total,
      origin: live(this.#now()),
      local: false,
      skipped: answer.skipped,
      ...unreadable,
    };
  }

  #servicePage(query: LocalCapacityQuery & { sortBy: string; sortOrder: 'asc' | 'desc' }, page: number, pageSize: number) {
    return this.#deps.session.authorized((client, token) =>
      client.read('listCapacities', {
        token,
        query: {
          page,
          pageSize,
          ...(query.sortBy === 'createdDate' ? { sortOrder: query.sortOrder } : {}),
          ...(query.status ? { status: query.status } : {}),
        },
      }),
    );
  }

  async capacityDetail(cidrId: string): Promise<SourcedCapacityDetail> {
    return this.#liveOrLocal(
      async () => {
        const view = await this.#describeLive(cidrId);
        this.#keep(this.#rememberCapacity(view));
        return { ...view, origin: live(this.#now()) };
      },
      async () => {
        const cached = await this.#deps.replica.read((replica) => readRecord(replica, 'capacityViews', cidrId));
        if (cached) return { ...cached.value, cidrId, extra: {}, origin: replica(cached.fetchedAt) };
        // Never opened: the list's record holds every group of the detail but its DR events.
        const row = await this.#deps.replica.read((replica) => capacityRow(replica, cidrId));
        return row ? { ...detailFromRow(row.policy), origin: replica(row.fetchedAt) } : null;
      },
    );
  }

  async accounts(): Promise<SourcedAccounts> {
    return this.#liveOrLocal(
      async () => {
        const read = await this.#deps.session.authorized((client, token) => client.read('linkedAccounts', { token }));
        const complete = completeAccounts(read);
        if (complete) this.#keep(this.#deps.replica.write((replica) => writeKind(replica, 'accounts', complete)));
        return { ...read, origin: live(this.#now()) };
      },
      async () => {
        const cached = await this.#deps.replica.read(readAccounts);
        return cached ? { items: cached.value, skipped: [], origin: replica(cached.fetchedAt) } : null;
      },
    );
  }

  async cyberList({ customerId, ...query }: CyberListInput & { customerId: string }): Promise<SourcedCyberPage> {
    return this.#liveOrLocal(
      async () => {
        const page = await this.#deps.session.authorized((client, token) =>
          client.read('listCyberPolicies', { token, params: { cid_ext: customerId }, query }),
        );
        for (const item of page.data) {
          if (typeof item.terminationTriggered === 'boolean') this.#deps.observe(item.cidrId, { kind: 'cyber', terminated: item.terminationTriggered });
        }
        // Kept as read (only items that read in full), so the list is there offline, marked with its age.
        const whole = page.data.flatMap((item) => {
          const parsed = CyberListItem.safeParse(item);
          return parsed.success ? [parsed.data] : [];
        });
        // The whole list's total when the read was not filtered (a filtered page's total is of the filtered list).
        const statedTotal = query.status === undefined && !query.policyName ? page.total : undefined;
        if (whole.length > 0) this.#keep(this.#deps.replica.write((replica) => addCyberPage(replica, customerId, whole, statedTotal)));
        return { ...page, origin: live(this.#now()) };
      },
      async () => {
        const cached = await this.#deps.replica.read((replica) => readCyberListKept(replica, customerId));
        return cached ? { ...queryCyberItems(cached.value, query), origin: replica(cached.fetchedAt), ...(cached.partial ? { keptListPartial: true } : {}) } : null;
      },
    );
  }

  async cyberView(cidrId: string): Promise<SourcedCyberDetail> {
    return this.#liveOrLocal(
      async () => {
        const view = await this.#viewCyberLive(cidrId);
        this.#keep(this.#rememberCyber(cidrId, view));
        return { ...view, origin: live(this.#now()) };
      },
      async () => {
        const cached = await this.#deps.replica.read((replica) => readRecord(replica, 'cyberViews', cidrId));
        return cached ? { ...cached.value, cidrId, extra: {}, origin: replica(cached.fetchedAt) } : null;
      },
    );
  }

  /** From the replica when it holds the list (well under a second at 100,000); else computed from the service. */
  async overview(): Promise<SourcedOverview> {
    const fetchedAt = await this.#deps.replica.read(capacitiesFetchedAt);
    if (fetchedAt) {
      // In steps, the event loop between them: the window's other calls are answered while a cold count reads the disk,
      // and while the first page loads no statement runs (its files are served each in a turn or two, not each behind one).
      const pageLoaded = this.#deps.pageLoaded;
      const betweenSteps = pageLoaded ? () => yieldToEventLoop().then(pageLoaded) : () => yieldToEventLoop();
      const summary = await this.#deps.replica.read((replica) => capacityOverview(replica, new Date(this.#now()), betweenSteps));
      if (summary) return { ...summary, origin: replica(fetchedAt) };
    }
    if (this.#localOnly()) throw new AppFailure({ kind: 'not-found', message: 'The overview needs the local copy, and there is none yet on this computer.' });
    const summary = await this.#deps.overview.summary();
    return { ...summary, origin: live(summary.asOf) };
  }

  /**
   * After a purchase, configuration, renewal change or cancellation: the
   * service's answer is written through at once, then the policy is read back
   * so every list and the overview show what the service now holds.
   */
  async afterCapacityAction(cidrId: string, answer?: CapacityPolicy): Promise<void> {
    // Before the copy exists the overview is counted from the service: none under way since before this answer is shared.
    this.#deps.overview.changed();
    if (answer) await this.#upsert(answer).catch(this.#deps.report);
    // Awaited to the end: whatever the window reads next already shows it.
    await this.#describeLive(cidrId)
      .then((view) => this.#rememberCapacity(view))
      .catch(this.#deps.report);
  }

  /**
   * A policy a money action's read-back read (its answer lost, or Check status): kept as a read answer is, the
   * list's row included, so the copy shows what the service now holds without waiting for the next refresh.
   */
  async keepReadBack(view: CapacityDetail): Promise<void> {
    this.#deps.overview.changed();
    await this.#rememberCapacity(view).catch(this.#deps.report);
  }

  /**
   * A capacity action that was not answered, or an outcome a read-back settled (money.check): the service may
   * hold a change the app never heard answered, so a live count under way since before it is not shared
   * (shown by live-overview-after-write's lost-answer case, moved12).
   */
  capacityMayHaveChanged(): void {
    this.#deps.overview.changed();
  }

  /**
   * A DR policy a termination's read-back read (its answer lost, or Check status): kept as an answered termination's
   * read is, its list item included, so the copy shows the termination without waiting for the next refresh.
   */
  async keepCyberReadBack(cidrId: string, view: CyberDetail): Promise<void> {
    await this.#rememberCyber(cidrId, view).catch(this.#deps.report);
  }

  /** After a DR termination: the policy is read back and kept. */
  async afterCyberAction(cidrId: string): Promise<void> {
    await this.#viewCyberLive(cidrId)
      .then((view) => this.#rememberCyber(cidrId, view))
      .catch(this.#deps.report);
  }

  async #describeLive(cidrId: string): Promise<CapacityDetail> {
    const view = await this.#deps.session.authorized((client, token) => client.read('describeCapacity', { token, params: { cidr_id: cidrId } }));
    this.#deps.observe(cidrId, { kind: 'capacity', status: view.policyDetails?.policyStatus ?? null });
    // Also the read-back after an action: the service answered, so views stop skipping it.
    this.#breaker.answered();
    return view;
  }

  async #viewCyberLive(cidrId: string): Promise<CyberDetail> {
    const view = await this.#deps.session.authorized((client, token) => client.read('viewCyberPolicy', { token, params: { cidr_id: cidrId } }));
    this.#deps.observe(cidrId, { kind: 'cyber', terminated: terminationShown(view) });
    this.#breaker.answered();
    return view;
  }

  async #rememberCyber(cidrId: string, view: CyberDetail): Promise<void> {
    const complete = completeCyberView(view);
    if (!complete) return;
    await this.#deps.replica.write(async (replica) => {
      await writeRecord(replica, 'cyberViews', cidrId, complete);
      // The customer's kept list said what the last page said: a termination seen here shows there too, offline.
      const { customerId, policyStatus } = complete.policyDetails;
      await keepCyberItemAsViewed(replica, customerId, cidrId, { policyStatus, terminationTriggered: terminationShown(complete) });
    });
  }

  async #rememberCapacity(view: CapacityDetail): Promise<void> {
    // Only a view that read in full is kept: a partial one would hide what the copy knew.
    const complete = completeCapacityView(view);
    if (!complete) return;
    await this.#deps.replica.write((replica) => writeRecord(replica, 'capacityViews', complete.policyDetails.cidrId, complete));
    const policy = policyFromView(complete);
    if (policy) await this.#upsert(policy);
  }

  /** Write-through of one policy into the replica's list (one row). */
  async #upsert(policy: CapacityPolicy): Promise<void> {
    await this.#deps.replica.write((replica) => upsertCapacity(replica, policy));
  }

  /**
   * The live answer when the service can be reached; the replica's when it
   * cannot (or the user works offline). With neither, the live failure stands.
   */
  async #liveOrLocal<T extends { readonly origin: Origin }>(fromService: () => Promise<T>, fromReplica: () => Promise<T | null>): Promise<T> {
    if (this.#localOnly()) {
      const local = await fromReplica();
      if (local) return local;
      // Offline, not "not found": the service was not asked, so nothing says the policy or customer does not exist.
      throw new AppFailure({ kind: 'offline', message: 'This is not in the local copy on this computer. It can be read once you are online.' });
    }
    // The service just failed to answer: what the copy holds is shown at once instead of after another timeout.
    if (this.#breaker.open) {
      const local = await fromReplica();
      if (local) return { ...local, origin: { ...local.origin, serviceUnreachable: true } };
    }
    try {
      const answer = await fromService();
      this.#breaker.answered();
      return answer;
    } catch (error) {
      if (!unreachable(error)) throw error;
      this.#breaker.unreachable();
      const local = await fromReplica();
      if (local) return { ...local, origin: { ...local.origin, serviceUnreachable: true } };
      throw error;
    }
  }

  /**
   * Asks the service itself whether it answers (never the copy): the offline
   * banner's "Check connection" and its periodic check. An answer reopens the
   * live path for every view.
   */
  async checkService(timeoutMs?: number): Promise<ServiceCheck> {
    const checkedAt = this.#now();
    if (this.#localOnly()) return { reachable: false, checkedAt };
    try {
      // The service has no health endpoint: its smallest read is the linked accounts (a few rows).
      await this.#deps.session.authorized((client, token) => client.read('linkedAccounts', { token, ...(timeoutMs ? { timeoutMs } : {}) }));
      this.#breaker.answered();
      return { reachable: true, checkedAt };
    } catch (error) {
      if (!unreachable(error)) throw error;
      this.#breaker.unreachable();
      return { reachable: false, checkedAt };
    }
  }

  /**
   * Working offline by choice, or reviewing without a session: nothing is
   * asked of the service. (Signed out and not reviewing, a read goes to the
   * service, which says to sign in.)
   */
  #localOnly(): boolean {
    return this.#deps.replica.reviewing;
  }

  #keep(work: Promise<void>): void {
    void work.catch(this.#deps.report);
  }

  #now(): string {
    return (this.#deps.now?.() ?? new Date()).toISOString();
  }
}

function live(fetchedAt: string): Origin {
  return { source: 'service', fetchedAt };
}

function replica(fetchedAt: string): Origin {
  return { source: 'replica', fetchedAt };
}

function unreachable(error: unknown): boolean {
  return error instanceof AppFailure && (error.error.kind === 'offline' || error.error.kind === 'timeout');
}

/**
 * A detail built from the list's record of a policy: each group the record
 * holds in full; a group with a field the service left out stays absent (the
 * view says it is not known) rather than showing made-up values.
 */
function detailFromRow(policy: CapacityRow): CapacityDetail {
  const config = policy.capacityConfiguration;
  const group = <K extends keyof CapacityView>(key: K, value: unknown): Partial<Pick<CapacityView, K>> => {
    const parsed = CapacityView.shape[key].safeParse(value);
    return parsed.success ? ({ [key]: parsed.data } as Pick<CapacityView, K>) : {};
  };
  return {
    cidrId: policy.cidrId,
    ...group('policyDetails', {
      cidrId: policy.cidrId,
      policyName: policy.policyName,
      policyStatus: policy.policyStatus,
      policyOperatingState: policy.policyOperatingState,
      cspAccountName: policy.cspAccountName,
    }),
    ...group('regionSettings', policy.cspRegion),
    ...group('instances', policy.policyInstance ? [policy.policyInstance] : undefined),
    ...group('dates', { createdDate: policy.createdDate, launchDateTime: config?.launchDateTime, endDateTime: config?.endDateTime }),
    ...group('configuration', config),
    ...group('pricing', policy.pricing),
    extra: {},
  };
}
