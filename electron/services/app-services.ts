import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { ownEntry } from '../../shared/records.js';
import type { Dispatcher } from 'undici';
import { ApiClient } from './api-client/api-client.js';
import { DEFAULT_TIMEOUTS, createHttpAgent, type AgentTimeouts } from './api-client/http-agent.js';
import type { RetryPolicy } from './api-client/retry-policy.js';
import { proxyReporter, readNetworkConfig } from './network/network-config.js';
import type { ResolveProxy } from './network/system-proxy-dispatcher.js';
import type { NetFetch } from './network/net-dispatcher.js';
import { AppEvents } from './events.js';
import { BackgroundRefresh } from './replica/background-refresh.js';
import { ServiceWatch, type ServiceWatchDeps } from './network/service-watch.js';
import { ServiceBreaker } from './repository/service-breaker.js';
import { FirstScreen, type FirstScreenWait } from './overview/first-screen.js';
import { PageLoading, callsEndPageLoading } from './overview/page-loading.js';
import { markLaunch } from './diagnostics/launch-marks.js';
import { CurrentReplica } from './replica/current-replica.js';
import { MergedRuns } from './replica/merged-runs.js';
import { RequestsFirst } from './replica/requests-first.js';
import { capacitiesFetchedAt } from './replica/replica-reads.js';
import { OwnDataService } from './own-data/own-data-service.js';
import type { SaveFileHost } from './files/save-file.js';
import { createReplicaHandlers } from './replica/replica-handlers.js';
import { createOwnDataHandlers } from './own-data/own-data-handlers.js';
import { createAppHandlers } from './ipc/app-handlers.js';
import { createPolicyHandlers } from './ipc/policy-handlers.js';
import { createSessionHandlers } from './ipc/session-handlers.js';
import { checkKeptAhead, warmOutputCheck } from './ipc/warm-checks.js';
import { createDesktopHandlers } from './desktop/desktop-handlers.js';
import { ActivityLog } from './activity/activity-log.js';
import { MoneyActions } from './money/money-actions.js';
import { PolicyChanges } from './money/policy-changes.js';
import { ProfileEditor } from './profiles/profile-editor.js';
import { PolicyRepository } from './repository/policy-repository.js';
import { CustomerBookService } from './customers/customer-book.js';
import { CustomerHandlers } from './customers/customer-handlers.js';
import { createQuoteHandlers } from './quote/quote-handlers.js';
import { RenewalWorklist } from './worklist/renewal-worklist.js';
import { createWorklistHandlers } from './worklist/worklist-handlers.js';
import { worklistStatesIn } from './worklist/worklist-states.js';
import { DriftLog } from './diagnostics/drift-log.js';
import { withAuditLog } from './logging/audit-log.js';
import { AUDIT_LOG_FILE, FileLogger } from './logging/file-logger.js';
import { Redactor } from './logging/redact.js';
import { BuiltInService, type BuiltInStarter } from './built-in/built-in-service.js';
import { tightenTree } from './platform/private-files.js';
import type { Owner } from './platform/owner.js';
import { ResilientSecretStore } from './secrets/resilient-secret-store.js';
import { OverviewService } from './overview/overview-service.js';
import { MoneyLock } from './money/money-lock.js';
import { PendingMoneyFile } from './money/pending-money-file.js';
import type { Handlers } from '../../shared/ipc/contract.js';
import { ProfileRegistry } from './profiles/profile-registry.js';
import { openSecretStore } from './secrets/open-secret-store.js';
import type { SafeStoragePort } from './secrets/safe-storage-secret-store.js';
import type { SecretStore } from './secrets/secret-store.js';
import { SessionService } from './session/session-service.js';
import { SettingsStore } from './settings/settings-store.js';
import { UnreadableFiles } from './settings/unreadable-files.js';
import { UiStateStore } from './ui-state/ui-state-store.js';
import { createDesktopServices, type DesktopServices } from './desktop/desktop-services.js';
import { browserDesktopHost, type DesktopHost } from './desktop/host.js';
import { readPackageVersion } from './desktop/package-version.js';
import { activeCapacityDates } from './desktop/policy-source.js';
import { systemScheduler } from './desktop/scheduler.js';
import { RenewalReminders } from './worklist/renewal-reminders.js';
import { ReminderRounds } from './worklist/reminder-rounds.js';
import { tupleKey } from '../../shared/format/tuple-key.js';


export interface AppServicesOptions {
  readonly dataDir: string;
  /** Where the log goes; Electron passes the OS's place (app.getPath('logs')), by default dataDir/logs. */
  readonly logsDir?: string;
  /** Also print log lines to stderr (the browser host's terminal). */
  readonly echoLogs?: boolean;
  /** Tests pass a store; the app opens the OS keychain. */
  readonly secrets?: SecretStore | undefined;
  /** The built-in Sandbox profile's in-process server, started when the Sandbox is first chosen (sandbox/built-in.ts). */
  readonly startSandbox: BuiltInStarter;
  /** Electron passes its save dialog; the browser host has none (its page downloads exports). */
  readonly saveFile?: SaveFileHost;
  /** HTTP timeouts and the GET retry policy; tests shorten them. */
  readonly http?: { readonly timeouts?: AgentTimeouts | undefined; readonly retry?: RetryPolicy | undefined } | undefined;
  /** When a money action's policy is re-read after an unanswered request; tests shorten it. */
  readonly moneyCheckDelaysMs?: readonly number[] | undefined;
  /** How long after an unanswered money request a read-back not showing it done is final; tests shorten it. */
  readonly moneyFinalAfterMs?: number | undefined;
  /** How long before expiry the session warns; tests shorten it. */
  readonly expiryWarningMs?: number;
  /** Where proxy and trust settings are read from (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Electron's resolver of the OS proxy settings; the browser host has none and reads the proxy variables only. */
  readonly resolveProxy?: ResolveProxy;
  /** Electron's net.fetch, for origins whose proxy wants NTLM/Negotiate/Kerberos sign-in or SOCKS (the browser host has none). */
  readonly netFetch?: NetFetch;
  /** Electron's safeStorage: the secret store's tier after the keychain (the browser host has none). */
  readonly safeStorage?: SafeStoragePort;
  /** Electron passes its updater and notifier; by default the browser host's (neither, and says why). */
  readonly desktop?: DesktopHost;
  /** The event bus, when the host needs it before the services exist (the Electron shell opens its window first). */
  readonly events?: AppEvents;
  /** The main log, likewise (the window's crash and hang reports go to it). */
  readonly logger?: FileLogger;
  /** The redactor `logger` was made with, so a sign-in's password is held out of it too. */
  readonly redactor?: Redactor;
  /**
   * Fill or refresh the local replica in the background: after each sign-in and when the interval says (default
   * true; request-counting tests turn it off, and then no refresh starts unless one is asked for).
   */
  readonly refreshReplicaAtSignIn?: boolean;
  /** The first page's loading, told by the host that serves it (the Electron shell makes it before the services). */
  readonly pageLoading?: PageLoading;
  /** The watch of the service's reachability: its waits between checks (tests shorten them). */
  readonly serviceWatch?: Pick<ServiceWatchDeps, 'upCheckEveryMs' | 'downDelaysMs'>;
  /**
   * Check the service's reachability when no read was heard for a while (default true; request-counting tests turn
   * it off: its check is a request of its own, made whenever a test idles past the wait).
   */
  readonly watchService?: boolean;
}

/** A check of the service that has no answer by then counts as "cannot be reached" (a network that swallows requests). */
const SERVICE_CHECK_TIMEOUT_MS = 5_000;

export interface AppServices {
  readonly handlers: Handlers;
  readonly events: AppEvents;
  readonly session: SessionService;
  readonly replica: CurrentReplica;
  /** The account manager's own data, per environment and user, apart from the disposable replica. */
  readonly ownData: OwnDataService;
  readonly logger: FileLogger;
  /** State-changing calls only, in a file of their own that no flood of other lines can rotate away. */
  readonly auditLog: FileLogger;
  readonly sandbox: BuiltInService;
  readonly secrets: SecretStore;
  readonly dataDir: string;
  readonly desktop: DesktopServices;
  /** Settings-like files found unreadable and kept aside in this run (the Electron shell adds its window state). */
  readonly unreadableFiles: UnreadableFiles;
  /** The host that serves the page tells it when the first page is asked and has its code (page-loading.ts). */
  readonly pageLoading: PageLoading;
  close(): Promise<void>;
}

/**
 * A data folder made by an older version, a backup tool or by hand may let
 * other users of the computer read it: take that away before anything is read
 * or written, and say so.
 */
async function tightenAtStart(folders: readonly string[], logger: FileLogger): Promise<void> {
  for (const folder of new Set(folders)) {
    const changed = await tightenTree(folder);
    if (changed.length === 0) continue;
    const named = changed.slice(0, 10).join(', ') + (changed.length > 10 ? `, and ${changed.length - 10} more` : '');
    logger.warn('files', `${folder} could be read by other users of this computer; made private (folders 0700, files 0600): ${named}`);
  }
}

/** The longest the work a launch or sign-in defers waits for the overview to be answered (a window that never asks for it). */
const FIRST_SCREEN_WAIT: FirstScreenWait = { afterWindowMs: 10_000, withoutWindowMs: 60_000 };
/** From the overview's answer to the deferred work's start: the window's paint of the figures comes first. */
const FIRST_SCREEN_PAINT_MS = 500;
/** How long the overview counted at the start stands for the window's first ask (its figures are as of that count). */
const FIRST_SCREEN_PREPARED_MS = 15_000;
/** From the first screen to the Renewals' opening made ahead at a launch over a copy on disk: after the window's first panels. */
const RENEWALS_AFTER_FIRST_SCREEN_MS = 3_000;
/**
 * How long the background work waits once the copy changed (a sync's end): the window's views read again 150 ms
 * after the change (COPY_CHANGED_SETTLE_MS in the page) and a person who watched the sync end clicks then; each
 * request then holds the work itself. Each slice waits at most RequestsFirst's longest wait (250 ms) all the same.
 */
const CALLS_AFTER_COPY_CHANGED_MS = 400;

/** The composition root of the main process, shared by the Electron and browser hosts. */
export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  // Redacted, rotating log in the data folder; nothing secret reaches it.
  const logsDir = options.logsDir ?? join(options.dataDir, 'logs');
  // One redactor for both logs, and for a logger the shell made before the services (window first).
  const redactor = options.redactor ?? new Redactor();
  const logger = options.logger ?? new FileLogger({ dir: logsDir, echo: options.echoLogs ?? false, redactor });
  // Only successful or failed state-changing calls write here (a few a minute at most), so
  // 10 x 1 MB keeps months of them; refusals and debug lines go to the other log.
  const auditLog = new FileLogger({ dir: logsDir, fileName: AUDIT_LOG_FILE, keep: 9, redactor });
  await tightenAtStart([options.dataDir, logsDir], logger);
  const unreadableFiles = new UnreadableFiles((event) =>
    logger.warn(
      'settings',
      `${event.file} could not be read: ${event.reason}. ${event.keptAs ? `Kept aside as ${event.keptAs}` : 'It could not be moved and is not written over'}; defaults are in use.`,
    ),
  );
  const settings = new SettingsStore(options.dataDir, unreadableFiles.report);
  await settings.load();
  const uiState = new UiStateStore(options.dataDir, unreadableFiles.report);
  await uiState.load();
  const moneyRecord = new PendingMoneyFile(options.dataDir, (line) => logger.warn('money', line));
  const pendingMoney = await moneyRecord.load();
  const secrets = options.secrets
    ? options.secrets
    : await openSecretStore(undefined, undefined, options.safeStorage ? { port: options.safeStorage, dataDir: options.dataDir } : undefined);
  const sandbox = new BuiltInService(options.startSandbox, options.dataDir);
  const network = readNetworkConfig(options.env ?? process.env);
  const timeouts = options.http?.timeouts ?? DEFAULT_TIMEOUTS;
  const agent: Dispatcher = createHttpAgent({ timeouts, network, resolveProxy: options.resolveProxy, net: options.netFetch, log: (line) => logger.warn('network', line) });
  // Differences between the service's answers and this version's schemas: paths only, logged once each.
  const drift = new DriftLog({ log: (message, detail) => logger.warn('contract-drift', message, detail) });
  const clients = new Map<string, ApiClient>();
  const clientFor = (baseUrl: string): ApiClient => {
    let client = clients.get(baseUrl);
    if (!client) {
      client = new ApiClient({
        baseUrl,
        dispatcher: agent,
        timeouts: { headersMs: timeouts.headersMs, bodyMs: timeouts.bodyMs, totalMs: timeouts.totalMs ?? DEFAULT_TIMEOUTS.totalMs },
        retry: options.http?.retry,
        onDrift: (endpoint, findings) => drift.record(endpoint, findings),
        // Only the built-in sandbox's own address gets its secret.
        headers: sandbox.headersFor(baseUrl),
      });
      clients.set(baseUrl, client);
    }
    return client;
  };
  const events = options.events ?? new AppEvents();
  // The replica is made below: whose recent customer ids are shown is asked of it when the registry is read.
  let ownerNow = (): Owner | null => null;
  const profiles = new ProfileRegistry(settings, () => sandbox.url, () => ownerNow());
  const session = new SessionService({
    secrets,
    settings,
    profiles,
    events,
    clientFor,
    expiryWarningMs: options.expiryWarningMs,
    redactor,
    startBuiltIn: () => sandbox.start(),
  });
  await session.restore();
  markLaunch('session restored');
  const desktop = await createDesktopServices({
    host: options.desktop ?? browserDesktopHost(readPackageVersion()),
    dataDir: options.dataDir,
    events,
    signedIn: () => session.status().signedIn,
    loadPolicies: activeCapacityDates(session),
    report: (where, error) => logger.error(where, 'failed', error),
    onUnreadable: unreadableFiles.report,
  });
  // The overview a launch and a sign-in land on: what must not wait behind work the person did not ask for.
  const whoIsSignedIn = () => {
    const status = session.status();
    return status.signedIn ? tupleKey(status.profileId, status.username ?? '') : null;
  };
  // The overview's count waits between its statements while the first page loads (the launch's count ran beside it).
  const pageLoading = options.pageLoading ?? new PageLoading();
  const firstScreen = new FirstScreen({ paintMs: FIRST_SCREEN_PAINT_MS, preparedForMs: FIRST_SCREEN_PREPARED_MS, whose: () => whoIsSignedIn() ?? '' });
  const afterFirstScreen = () => firstScreen.next(FIRST_SCREEN_WAIT);
  // The person's requests before the copy's check of every page and the slim rows' load (issue 28).
  const requestsFirst = new RequestsFirst();
  // Set once the worklist exists (below): the Renewals' opening made as a refresh's list commits.
  let listCommitted = (): void => undefined;
  const replica = new CurrentReplica({
    afterFirstScreen,
    listCommitted: () => listCommitted(),
    sliceTurn: () => requestsFirst.turn(),
    dataDir: options.dataDir,
    secrets,
    session,
    events,
    lastUsername: (profileId) => ownEntry(settings.current.lastUsernames, profileId),
    customersToSync: () => {
      const status = session.status();
      return status.signedIn && status.username ? profiles.recentCustomerIds({ profileId: status.profileId, username: status.username }) : [];
    },
    logger,
  });
  ownerNow = () => replica.owner();
  const ownData = new OwnDataService({
    dataDir: options.dataDir,
    secrets,
    owner: () => replica.owner(),
    logger,
    legacyActivity: (owner) => replica.legacyActivity(owner),
    forgetLegacyActivity: (owner) => replica.forgetLegacyActivity(owner),
  });
  // Opened as soon as someone signs in: the activity record an older version kept in the replica
  // moves to own data before anything (a wipe at sign-out, a rebuilt copy) can take the replica away.
  // Set by close: the work deferred here starts nothing after it, and its waits for the first screen end
  // (a window that never asks would hold them a minute).
  let closed = false;
  let announceClosed = () => {};
  const closing = new Promise<void>((resolve) => (announceClosed = resolve));
  const openOwnData = () => void ownData.current().catch((error: unknown) => logger.warn('own-data', 'own data could not be opened', error));
  events.subscribe((event) => {
    if (event !== 'session.changed' || closed) return;
    ownData.ownerChanged();
    openOwnData();
  });
  openOwnData();
  const scheduler = options.desktop?.scheduler ?? systemScheduler;
  const reminders = new RenewalReminders({
    replica,
    ownData,
    leadDays: () => desktop.preferences.current.reminderLeadDays,
    now: () => scheduler.now(),
  });
  const reminderRounds = options.desktop?.notifier
    ? new ReminderRounds({ reminders, notifier: options.desktop.notifier, scheduler, onActivate: () => desktop.command({ kind: 'go', view: 'renewals' }), events, logger })
    : null;
  const reportWriteThrough = (error: unknown) => logger.warn('replica', 'write-through failed', error);
  // What this app did to each policy, in the own data of the user who did it.
  const activity = new ActivityLog({ ownData, session, report: reportWriteThrough });
  // One money action per policy and profile at a time, sent once, re-checked when unanswered, locked until settled.
  const money = new MoneyActions({
    session,
    lock: new MoneyLock({
      ...(options.moneyFinalAfterMs !== undefined ? { finalAfterMs: options.moneyFinalAfterMs } : {}),
      record: moneyRecord,
      restored: pendingMoney.entries,
      blocked: pendingMoney.blocked,
      onRecordFailure: (error) => logger.error('money', 'the record of unconfirmed money actions could not be written', error),
      onChange: (state) => events.emit('money.changed', state),
    }),
    activity,
    ...(options.moneyCheckDelaysMs ? { checkDelaysMs: options.moneyCheckDelaysMs } : {}),
    // The repository is made below: called only once an action is under way.
    readBackSeen: (view) => repository.keepReadBack(view),
    cyberReadBackSeen: (cidrId, view) => repository.keepCyberReadBack(cidrId, view),
  });
  // Notices the service going away and coming back without a view asking (day13): every live read's outcome is
  // heard through the breaker, and when none was heard for a while it asks the service something small itself.
  const serviceWatch = new ServiceWatch({
    // Any answer but none at all is the service there (an expired session's 401 too: the views say that themselves).
    probe: async () => (await repository.checkService(SERVICE_CHECK_TIMEOUT_MS).catch(() => ({ reachable: true }))).reachable,
    // Not past the token's expiry: a check must not be what ends a session (the expiry timers and the views do that).
    active: () => {
      const status = session.status();
      return !closed && status.signedIn && !replica.reviewing && !(status.expiresAt && Date.parse(status.expiresAt) <= Date.now());
    },
    session: () => {
      const { profileId, username, expiresAt } = session.status();
      return tupleKey(profileId, username ?? '', expiresAt ?? '');
    },
    onChange: (state) => events.emit('network.serviceChanged', state),
    logger,
    ...options.serviceWatch,
  });
  const repository = new PolicyRepository({
    breaker: new ServiceBreaker(undefined, undefined, (reachable) => serviceWatch.heard(reachable)),
    session,
    replica,
    overview: new OverviewService({ session }),
    pageLoaded: () => pageLoading.loaded(),
    observe: (cidrId, fact) => money.observe(cidrId, fact),
    report: reportWriteThrough,
  });
  const customers = new CustomerHandlers({
    book: new CustomerBookService({ ownData }),
    replica,
    ownData,
    recentExternalIds: () => {
      const owner = ownerNow();
      return owner ? profiles.recentCustomerIds(owner) : [];
    },
  });
  const customerHandlers = customers.handlers();
  const customerOf = () => customers.customerOfAccount();
  const worklist = new RenewalWorklist({
    replica,
    states: worklistStatesIn(ownData),
    customerOf,
    turn: () => requestsFirst.turn(),
    checkAhead: (answer) => checkKeptAhead('worklist.query', answer),
  });
  // The Renewals' opening answer made ahead as background work (after the first screen, after each refresh), so the
  // first click is answered from memory (issue 28). It waits its turn behind the person's requests; asks while one
  // waits are merged into it. Close waits for the one under way: no read of the copy or the own data once they are closed.
  const renewalsAhead = new MergedRuns(async () => {
    try {
      if (closed || !session.status().signedIn) return;
      // The first click's answer is checked by the channel without compiling its shapes then (issue 28, renew17).
      warmOutputCheck('worklist.query');
      await worklist.prepareOpening();
    } catch (error) {
      // At close the copy and the own data refuse reads: nothing went wrong then.
      if (!closed) logger.warn('worklist', 'the Renewals’ opening could not be made ahead', error);
    }
  }, () => requestsFirst.turn());
  const prepareRenewals = () => renewalsAhead.ask();
  events.subscribe((event) => {
    if (event !== 'offline.copyChanged' || closed) return;
    // The window reads its views again and the person clicks as the sync ends: their calls first (renew16).
    requestsFirst.expectCalls(CALLS_AFTER_COPY_CHANGED_MS);
    prepareRenewals();
  });
  // Also as soon as a refresh's list has committed, while its details, accounts and DR lists are still fetched: they
  // leave the list's version (and the opening) standing, so a click soon after the sync ends finds it made (issue 28:
  // made only at the end, a click a page load after it met the steps under way, 300-330 ms on a quiet machine).
  listCommitted = () => {
    if (!closed) prepareRenewals();
  };
  // A call from the window: its page's code runs, so its loading is over (the count goes on).
  const handlers: Handlers = callsEndPageLoading(withAuditLog(
    requestsFirst.watch(firstScreen.watch({
      ...createSessionHandlers({ session, profiles, profileEditor: new ProfileEditor(profiles, session), demoAccounts: sandbox.demoAccounts }),
      ...createPolicyHandlers({
        session,
        repository,
        money,
        changes: new PolicyChanges({ session, activity, repository }),
        activity,
        scoped: (query) => customers.scoped(query),
      }),
      ...createReplicaHandlers(replica),
      ...createOwnDataHandlers(ownData),
      ...customerHandlers,
      'customers.overview': firstScreen.after(customerHandlers['customers.overview'], FIRST_SCREEN_WAIT),
      ...createQuoteHandlers({ repository, profiles, session, activity }),
      ...createWorklistHandlers({
        worklist,
        reminders,
        replica,
        customerOf,
        saveFile: options.saveFile,
      }),
      ...createDesktopHandlers(desktop),
      ...createAppHandlers({
        session,
        profiles,
        repository,
        network,
        proxyInUse: proxyReporter(network, agent),
        saveFile: options.saveFile,
        desktop,
        drift,
        unreadableFiles,
        uiState,
      }),
    }), ['customers.overview', 'offline.wipe', 'offline.sync']),
    auditLog,
  ), pageLoading);

  desktop.start();
  reminderRounds?.start();
  const backgroundRefresh = new BackgroundRefresh({
    intervalMinutes: () => desktop.preferences.current.offlineRefreshMinutes,
    signedIn: () => session.status().signedIn,
    lastFetchedAt: async () => (await replica.status()).fetchedAt.capacities ?? null,
    sync: () => replica.refresh.run(),
    logger,
  });
  // The replica is filled (or refreshed) right after each sign-in, in the background: the views page the service meanwhile.
  const refreshAtSignIn = options.refreshReplicaAtSignIn ?? true;
  // Off, no refresh starts unless one is asked for: the look every minute would fill an empty copy beside a request-counting test.
  if (refreshAtSignIn) backgroundRefresh.start();
  if (options.watchService ?? true) serviceWatch.start();
  let signedIn = whoIsSignedIn();
  // With a copy on disk the overview the sign-in opens on answers from it: its refresh waits for those figures (its
  // fetching and writing would slow that first screen). Without a copy the fill starts at once, the views paging the service.
  const refreshAfterFirstScreen = () =>
    void (async () => {
      // Asked before the copy is looked at, so an answer that comes meanwhile is not missed.
      const firstScreenAnswered = afterFirstScreen();
      if (await replica.read(capacitiesFetchedAt).catch(() => null)) {
        await Promise.race([firstScreenAnswered, closing]);
        // Later than the refresh: made at once, its read (cold, from the disk) held the window's other first calls
        // and the overview's paint (launch 1,357 against 920 ms, overview cold 642 against 414 ms, quiet, 100k).
        void Promise.race([delay(RENEWALS_AFTER_FIRST_SCREEN_MS, undefined, { ref: false }), closing]).then(() => {
          if (!closed) prepareRenewals();
        });
      }
      if (closed) return;
      markLaunch('sign-in refresh started');
      void backgroundRefresh.tick('sign-in');
    })();
  if (signedIn && refreshAtSignIn) refreshAfterFirstScreen();
  // A launch with a kept session and a copy on disk: the overview it opens on is counted as the copy opens, while the
  // window loads its page and code (cold, at 100,000, the count read from the disk was most of the window's wait).
  // Without a copy the overview pages the service: nothing is asked before a window does. Counted in steps with the
  // event loop between them (capacityOverview), so the page's files and first calls are served between its
  // statements; counted after the page's code instead (overview5 to overview10, while the count was one piece), the
  // window's first calls waited for it (overview11: 472-928 ms against 1,136-1,476 ms, load 25, docs/local-first.md).
  if (signedIn)
    void (async () => {
      if (!(await replica.read(capacitiesFetchedAt).catch(() => null))) return;
      if (!closed) firstScreen.prepare();
    })();
  events.subscribe((event) => {
    if (event !== 'session.changed' || !refreshAtSignIn) return;
    // Only a new sign-in: token refreshes and keychain notices announce a session change too.
    const now = whoIsSignedIn();
    if (now && now !== signedIn) refreshAfterFirstScreen();
    signedIn = now;
  });
  if (secrets instanceof ResilientSecretStore) {
    secrets.onDegraded((keychain) => {
      logger.warn('keychain', `the system keychain stopped answering; secrets are now kept in memory (${keychain.reason ?? ''})`);
      events.emit('session.changed', session.status());
    });
  }

  return {
    handlers,
    events,
    session,
    replica,
    ownData,
    logger,
    auditLog,
    sandbox,
    secrets,
    dataDir: options.dataDir,
    desktop,
    unreadableFiles,
    pageLoading,
    async close() {
      closed = true;
      announceClosed();
      desktop.stop();
      // No reminder round starts from here on; the one under way records the reminders it gave, then ends.
      const remindersStopped = Promise.all([reminderRounds?.stop(), reminders.settled()]);
      // No refresh starts from here on; the look under way ends once the replica's refresh is stopped.
      const refreshStopped = backgroundRefresh.stop();
      const watchStopped = serviceWatch.stop();
      // A load or check under way ends without waiting for the requests still open.
      requestsFirst.stop();
      await renewalsAhead.settled();
      // A sign-in waiting for its answer stops; one storing its token and settings is waited for.
      await session.close();
      // Read-backs still waiting stop, their outcome left unknown and recorded (read back at the next start, never
      // sent again); requests under way end and are recorded. Nothing of a money action is written after this.
      await money.close();
      await remindersStopped;
      // A refresh under way stops and is waited for, an opening, a load or a check of every page under way
      // ends, and the replica is closed (its journal folded in, its checkpoint thread gone): nothing is
      // written to the copy after close, and nothing opens it again.
      await replica.close();
      await refreshStopped;
      await watchStopped;
      await ownData.close();
      await Promise.allSettled([agent.close(), sandbox.close()]);
      // The log a host passed in is the host's to close (the shell logs its quit after this).
      await Promise.all([options.logger ? logger.flush() : logger.close(), auditLog.close()]);
    },
  };
}
