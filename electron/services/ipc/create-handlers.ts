import { createOfflineHandlers } from '../cache/offline-handlers.js';
import type { OfflineService } from '../cache/offline-service.js';
import type { LocalCapacityQuery } from '../../../shared/ipc/offline.js';
import type { OwnDataService } from '../own-data/own-data-service.js';
import { deliverFile, safeFileName, saveCsv, type SaveFileHost } from '../files/save-file.js';
import { calendarOfMilestones } from '../worklist/calendar-export.js';
import { saveSheet } from '../files/save-sheet.js';
import type { MoneyLock } from '../money/money-lock.js';
import { MoneyActions } from '../money/money-actions.js';
import { PolicyRepository } from '../repository/policy-repository.js';
import { ActivityLog, configuredFields } from '../activity/activity-log.js';
import { createQuoteHandlers } from '../quote/quote-handlers.js';
import { networkStatus, readNetworkConfig, type NetworkConfig } from '../network/network-config.js';
import type { ProxyInUse } from '../../../shared/ipc/models.js';
import { ProfileEditor } from '../profiles/profile-editor.js';
import type { OverviewService } from '../overview/overview-service.js';
import type { ProfileRegistry } from '../profiles/profile-registry.js';
import type { SessionService } from '../session/session-service.js';
import type { UnreadableFiles } from '../settings/unreadable-files.js';
import type { UiStateStore } from '../ui-state/ui-state-store.js';
import type { DemoAccount } from '../built-in/built-in-service.js';
import { SANDBOX_PROFILE_ID } from '../profiles/profile-registry.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import { createDesktopHandlers } from '../desktop/desktop-handlers.js';
import type { DesktopServices } from '../desktop/desktop-services.js';
import type { DriftLog } from '../diagnostics/drift-log.js';
import { CustomerBookService } from '../customers/customer-book.js';
import { CustomerHandlers } from '../customers/customer-handlers.js';
import { RenewalWorklist } from '../worklist/renewal-worklist.js';
import { worklistStatesIn } from '../worklist/worklist-states.js';
import type { RenewalReminders } from '../worklist/renewal-reminders.js';

export interface HandlerDeps {
  readonly profiles: ProfileRegistry;
  readonly session: SessionService;
  /** Each policy's money actions: one request at a time, locked while an outcome is unknown. */
  readonly moneyLock: MoneyLock;
  readonly offline: OfflineService;
  /** The account manager's own data (activity record, and next the customer book and worklist states). */
  readonly ownData: OwnDataService;
  readonly overview: OverviewService;
  /** Where exports go: Electron's save dialog; absent in the browser host, whose page downloads them. */
  readonly saveFile?: SaveFileHost | undefined;
  /** Proxy and trust settings the HTTP agent uses, reported by network.status. */
  readonly network?: NetworkConfig | undefined;
  /** The route requests to a base URL take (OS proxy settings or variables), listed per environment by network.status. */
  readonly proxyInUse?: ((baseUrl: string) => Promise<ProxyInUse>) | undefined;
  /** When a money action's policy is re-read after an unanswered request (tests shorten it). */
  readonly moneyCheckDelaysMs?: readonly number[] | undefined;
  /** Preferences, updates and app facts: what the host provides. */
  readonly desktop: DesktopServices;
  /** How the service's answers differed from what this version expects. */
  readonly drift: DriftLog;
  /** Settings-like files found unreadable and kept aside, for the renderer's notice. */
  readonly unreadableFiles: UnreadableFiles;
  /** The views' small state (list filter, sort, place). */
  readonly uiState: UiStateStore;
  /** The built-in sandbox's demo accounts (their passwords never cross to the window). */
  readonly demoAccounts?: readonly DemoAccount[] | undefined;
  /** Where a failed write-through to the local replica is reported (it never fails the answer). */
  readonly reportWriteThrough?: ((error: unknown) => void) | undefined;
  /** Renewal reminders from the local copy, each given once. */
  readonly reminders: Pick<RenewalReminders, 'take'>;
  /** The clock the worklist reads (tests set it). */
  readonly now?: (() => Date) | undefined;
}

/**
 * The answer of an action, once what follows it (write-through, read-back)
 * is done, so that whatever the window reads next already shows it.
 * What follows never fails the action: its own failures are reported.
 */
async function afterwards<T>(action: Promise<T>, then: (answer: T) => Promise<void>): Promise<T> {
  const answer = await action;
  await then(answer);
  return answer;
}

export function createHandlers({
  profiles,
  session,
  moneyLock,
  offline,
  ownData,
  overview,
  saveFile,
  network,
  proxyInUse,
  moneyCheckDelaysMs,
  desktop,
  drift,
  unreadableFiles,
  uiState,
  demoAccounts = [],
  reportWriteThrough = () => undefined,
  now,
  reminders,
}: HandlerDeps): Handlers {
  const call = session.authorized.bind(session);
  /** One money action per policy and profile at a time, sent once, re-checked when unanswered, locked until settled. */
  /** What this app did to each policy, in the own data of the user who did it. */
  const activity = new ActivityLog({ ownData, session, report: reportWriteThrough });
  const money = new MoneyActions({ session, lock: moneyLock, activity, ...(moneyCheckDelaysMs ? { checkDelaysMs: moneyCheckDelaysMs } : {}) });
  const profileEditor = new ProfileEditor(profiles, session);
  const repository = new PolicyRepository({
    session,
    offline,
    overview,
    observe: (cidrId, fact) => money.observe(cidrId, fact),
    report: reportWriteThrough,
  });

  const customers = new CustomerHandlers({
    book: new CustomerBookService({ ownData }),
    offline,
    ownData,
    recentExternalIds: () => profiles.find(offline.owner()?.profileId ?? session.status().profileId)?.lastCustomerIds ?? [],
  });
  const customerOf = async () => {
    const named = await customers.customerOfAccount();
    return ({ account }: { readonly account: string | null }) => named(account);
  };
  const worklist = new RenewalWorklist({ offline, states: worklistStatesIn(ownData), customerOf, ...(now ? { now } : {}) });
  /** Sorting by the fee: each policy's stated fee, from the own data, goes with the query to the copy that orders it. */
  const withStatedFees = async <Q extends LocalCapacityQuery>(query: Q): Promise<Q> =>
    query.sortBy === 'fee' ? { ...query, statedFees: (await activity.statedFees()).map(({ cidrId, fee }): [string, number] => [cidrId, fee]) } : query;

  return {
    ...createOfflineHandlers(offline),
    ...customers.handlers(),
    ...createDesktopHandlers(desktop),
    'profiles.list': async () => profiles.list(),
    'session.status': async () => session.status(),
    'session.signIn': (input) => session.signIn(input),
    'session.signOut': () => session.signOut(),
    'session.demoAccounts': async () => demoAccounts.map(({ username, displayName }) => ({ username, displayName })),
    'session.signInDemo': async ({ username }) => {
      const account = demoAccounts.find((candidate) => candidate.username === username);
      if (!account) throw new AppFailure({ kind: 'not-found', message: 'There is no such demo account in the built-in sandbox.' });
      return session.signIn({ profileId: SANDBOX_PROFILE_ID, username: account.username, password: account.password });
    },
    // Views read through the repository: the local replica where it holds the answer, the service
    // (tolerantly: an odd item or group never blanks a page) otherwise. Money actions stay strict,
    // and their answers are written through at once.
    'accounts.list': () => repository.accounts(),
    'network.checkService': () => repository.checkService(),
    'capacity.list': async (query) => repository.capacityList(await withStatedFees(await customers.scoped(query))),
    'capacity.describe': ({ cidrId }) => repository.capacityDetail(cidrId),
    'capacity.search': (input) => call((client, token) => client.read('searchCapacity', { token, query: input })),
    'capacity.purchase': ({ cidrId }) => afterwards(money.purchase(cidrId), (policy) => repository.afterCapacityAction(cidrId, policy)),
    'capacity.configure': (input) =>
      afterwards(
        activity.track(
          activity.owner(),
          { policyKind: 'capacity', cidrId: input.cidrId, action: 'configure' },
          call((client, token) => client.call('configureCapacity', { token, body: input })),
          () => ({}),
          { configured: configuredFields(input) },
        ),
        (policy) => repository.afterCapacityAction(input.cidrId, policy),
      ),
    'capacity.setAutoRenewal': (input) =>
      afterwards(
        activity.track(
          activity.owner(),
          { policyKind: 'capacity', cidrId: input.cidrId, action: 'autoRenewal' },
          call((client, token) => client.call('setAutoRenewal', { token, body: input })),
          () => ({}),
          { autoRenewal: { enabled: input.autoRenewalEnabled, frequency: input.autoRenewalEnabled ? (input.frequency ?? null) : null } },
        ),
        () => repository.afterCapacityAction(input.cidrId),
      ),
    'capacity.cancel': ({ cidrId }) => afterwards(money.cancel(cidrId), () => repository.afterCapacityAction(cidrId)),

    'cyber.list': (input) => repository.cyberList(input),
    'cyber.view': ({ cidrId }) => repository.cyberView(cidrId),
    'cyber.terminate': ({ cidrId }) => afterwards(money.terminate(cidrId), () => repository.afterCyberAction(cidrId)),

    'overview.summary': () => repository.overview(),
    'diagnostics.contractDrift': async () => ({
      service: profiles.find(session.status().profileId)?.baseUrl ?? '',
      appVersion: desktop.appInfo().version,
      entries: drift.entries(),
    }),
    'files.saveCsv': (input) => saveCsv(input, saveFile),
    'files.saveSheet': (input) => saveSheet(input, saveFile),

    'profiles.save': (input) => profileEditor.save(input),
    'profiles.remove': (input) => profileEditor.remove(input),
    'profiles.rememberCustomer': (input) => profileEditor.rememberCustomer(input),
    'network.status': async () =>
      networkStatus(network ?? readNetworkConfig(), proxyInUse ? await Promise.all(profiles.list().map((profile) => proxyInUse(profile.baseUrl))) : []),
    'money.state': async ({ cidrId }) => money.state(cidrId),
    'money.check': ({ cidrId }) => money.check(cidrId),
    'app.unreadableFiles': async () => unreadableFiles.list(),
    'views.state': async () => uiState.all(),
    'views.setState': (entry) => uiState.set(entry),
    'activity.list': ({ policyKind, policyId }) => activity.list(policyKind, policyId),
    'activity.statedFees': () => activity.statedFees(),
    ...createQuoteHandlers({ repository, profiles, session, activity }),
    'worklist.query': (query) => worklist.query(query),
    'worklist.setEntry': (input) => worklist.setEntry(input),
    'reminders.take': () => reminders.take(),
    'worklist.exportCalendar': async (input) => {
      const { content, events } = await calendarOfMilestones(input, { offline, customerOf, ...(now ? { now } : {}) });
      const name = safeFileName(`Launches and ends${input.customer ? ` ${input.customer}` : ''}`, 'ics');
      return deliverFile({ suggestedName: name, content, filter: { name: 'Calendar (iCalendar)', extensions: ['ics'] } }, events, saveFile);
    },
  };
}
