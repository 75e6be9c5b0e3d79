import { createOfflineHandlers } from '../cache/offline-handlers.js';
import type { OfflineService } from '../cache/offline-service.js';
import { saveCsv, type SaveFileHost } from '../files/save-file.js';
import type { MoneyLock } from '../money/money-lock.js';
import { MoneyActions, terminationShown } from '../money/money-actions.js';
import { networkStatus, readNetworkConfig, type NetworkConfig } from '../network/network-config.js';
import type { ProxyInUse } from '../../../shared/ipc/models.js';
import { ProfileEditor } from '../profiles/profile-editor.js';
import type { OverviewService } from '../overview/overview-service.js';
import type { ProfileRegistry } from '../profiles/profile-registry.js';
import type { SessionService } from '../session/session-service.js';
import type { UnreadableFiles } from '../settings/unreadable-files.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import { createDesktopHandlers } from '../desktop/desktop-handlers.js';
import type { DesktopServices } from '../desktop/desktop-services.js';
import type { DriftLog } from '../diagnostics/drift-log.js';

export interface HandlerDeps {
  readonly profiles: ProfileRegistry;
  readonly session: SessionService;
  /** Each policy's money actions: one request at a time, locked while an outcome is unknown. */
  readonly moneyLock: MoneyLock;
  readonly offline: OfflineService;
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
}

export function createHandlers({ profiles, session, moneyLock, offline, overview, saveFile, network, proxyInUse, moneyCheckDelaysMs, desktop, drift, unreadableFiles }: HandlerDeps): Handlers {
  const call = session.authorized.bind(session);
  /** One money action per policy and profile at a time, sent once, re-checked when unanswered, locked until settled. */
  const money = new MoneyActions({ session, lock: moneyLock, ...(moneyCheckDelaysMs ? { checkDelaysMs: moneyCheckDelaysMs } : {}) });
  const profileEditor = new ProfileEditor(profiles, session);

  return {
    ...createOfflineHandlers(offline),
    ...createDesktopHandlers(desktop),
    'profiles.list': async () => profiles.list(),
    'session.status': async () => session.status(),
    'session.signIn': (input) => session.signIn(input),
    'session.signOut': () => session.signOut(),
    // Views read tolerantly (an odd item or group never blanks a page); money actions below stay strict.
    'accounts.list': () => call((client, token) => client.read('linkedAccounts', { token })),

    // Every read of a policy may settle a money action whose outcome was unknown (no extra request).
    'capacity.list': async (input) => {
      const page = await call((client, token) => client.read('listCapacities', { token, query: input }));
      for (const policy of page.data) money.observe(policy.cidrId, { kind: 'capacity', status: policy.policyStatus ?? null });
      return page;
    },
    'capacity.describe': async ({ cidrId }) => {
      const view = await call((client, token) => client.read('describeCapacity', { token, params: { cidr_id: cidrId } }));
      money.observe(cidrId, { kind: 'capacity', status: view.policyDetails?.policyStatus ?? null });
      return view;
    },
    'capacity.search': (input) => call((client, token) => client.read('searchCapacity', { token, query: input })),
    'capacity.purchase': ({ cidrId }) => money.purchase(cidrId),
    'capacity.configure': (input) => call((client, token) => client.call('configureCapacity', { token, body: input })),
    'capacity.setAutoRenewal': (input) => call((client, token) => client.call('setAutoRenewal', { token, body: input })),
    'capacity.cancel': ({ cidrId }) => money.cancel(cidrId),

    'cyber.list': async ({ customerId, ...query }) => {
      const page = await call((client, token) => client.read('listCyberPolicies', { token, params: { cid_ext: customerId }, query }));
      for (const item of page.data) {
        if (typeof item.terminationTriggered === 'boolean') money.observe(item.cidrId, { kind: 'cyber', terminated: item.terminationTriggered });
      }
      return page;
    },
    'cyber.view': async ({ cidrId }) => {
      const view = await call((client, token) => client.read('viewCyberPolicy', { token, params: { cidr_id: cidrId } }));
      money.observe(cidrId, { kind: 'cyber', terminated: terminationShown(view) });
      return view;
    },
    'cyber.terminate': ({ cidrId }) => money.terminate(cidrId),

    'overview.summary': () => overview.summary(),
    'diagnostics.contractDrift': async () => ({
      service: profiles.find(session.status().profileId)?.baseUrl ?? '',
      appVersion: desktop.appInfo().version,
      entries: drift.entries(),
    }),
    'files.saveCsv': (input) => saveCsv(input, saveFile),

    'profiles.save': (input) => profileEditor.save(input),
    'profiles.remove': (input) => profileEditor.remove(input),
    'profiles.rememberCustomer': (input) => profileEditor.rememberCustomer(input),
    'network.status': async () =>
      networkStatus(network ?? readNetworkConfig(), proxyInUse ? await Promise.all(profiles.list().map((profile) => proxyInUse(profile.baseUrl))) : []),
    'money.state': async ({ cidrId }) => money.state(cidrId),
    'money.check': ({ cidrId }) => money.check(cidrId),
    'app.unreadableFiles': async () => unreadableFiles.list(),
  };
}
