import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { ProxyInUse } from '../../../shared/ipc/network.js';
import type { DesktopServices } from '../desktop/desktop-services.js';
import type { DriftLog } from '../diagnostics/drift-log.js';
import { saveCsv, type SaveFileHost } from '../files/save-file.js';
import { saveSheet } from '../files/save-sheet.js';
import { networkStatus, type NetworkConfig } from '../network/network-config.js';
import type { ProfileRegistry } from '../profiles/profile-registry.js';
import type { PolicyRepository } from '../repository/policy-repository.js';
import type { SessionService } from '../session/session-service.js';
import type { UnreadableFiles } from '../settings/unreadable-files.js';
import type { UiStateStore } from '../ui-state/ui-state-store.js';

type AppChannel = Extract<Channel, `${'network' | 'files' | 'diagnostics' | 'views'}.${string}` | 'app.unreadableFiles'>;

export interface AppHandlerDeps {
  readonly session: Pick<SessionService, 'status'>;
  readonly profiles: ProfileRegistry;
  readonly repository: Pick<PolicyRepository, 'checkService'>;
  /** Proxy and trust settings the HTTP agent uses, reported by network.status. */
  readonly network: NetworkConfig;
  /** The route requests to a base URL take (OS proxy settings or variables), listed per environment by network.status. */
  readonly proxyInUse?: ((baseUrl: string) => Promise<ProxyInUse>) | undefined;
  /** Where exports go: Electron's save dialog; absent in the browser host, whose page downloads them. */
  readonly saveFile?: SaveFileHost | undefined;
  readonly desktop: Pick<DesktopServices, 'appInfo'>;
  /** How the service's answers differed from what this version expects. */
  readonly drift: DriftLog;
  /** Settings-like files found unreadable and kept aside, for the renderer's notice. */
  readonly unreadableFiles: UnreadableFiles;
  /** The views' small state (list filter, sort, place). */
  readonly uiState: UiStateStore;
}

/** The app around the policies: the network, exports, diagnostics, settings files found unreadable, the views' state. */
export function createAppHandlers(deps: AppHandlerDeps): Pick<Handlers, AppChannel> {
  const { session, profiles, repository, network, proxyInUse, saveFile, desktop, drift, unreadableFiles, uiState } = deps;
  return {
    'network.status': async () =>
      networkStatus(network, proxyInUse ? await Promise.all(profiles.list().map((profile) => proxyInUse(profile.baseUrl))) : []),
    'network.checkService': () => repository.checkService(),
    'files.saveCsv': (input) => saveCsv(input, saveFile),
    'files.saveSheet': (input) => saveSheet(input, saveFile),
    'diagnostics.contractDrift': async () => ({
      service: profiles.find(session.status().profileId)?.baseUrl ?? '',
      appVersion: desktop.appInfo().version,
      entries: drift.entries(),
    }),
    'app.unreadableFiles': async () => unreadableFiles.list(),
    'views.state': async () => uiState.all(),
    'views.setState': (entry) => uiState.set(entry),
  };
}
