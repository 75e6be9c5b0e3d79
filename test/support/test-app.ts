import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/host-server.js';
import { builtInSandbox } from '../../sandbox/built-in.js';
import type { PageLoading } from '../../electron/services/overview/page-loading.js';
import { createAppServices, type AppServices, type AppServicesOptions } from '../../electron/services/app-services.js';
import type { SecretStore } from '../../electron/services/secrets/secret-store.js';
import { workerKeychain } from './worker-keychain.js';
import type { SandboxOptions } from '../../sandbox/server.js';

/** The build the UI tests serve; CD_DIST_DIR lets parallel work build elsewhere. */
const DIST_DIR = process.env.CD_DIST_DIR ?? 'dist';

export interface TestApp {
  readonly services: AppServices;
  readonly host: BrowserHost;
  readonly dataDir: string;
  /** A new browser host over the same main process, as after a restart of `npm start` (new port, new name, new origin). */
  restartHost(): Promise<BrowserHost>;
  /**
   * The whole app closed and started again on the same data folder and keychain, as after quitting
   * it: new main-process services (its built-in sandbox seeded alike, so the same policies) behind a new host.
   */
  restartApp(): Promise<BrowserHost>;
  close(): Promise<void>;
}

/**
 * The real main-process services (in-process sandbox, real keychain unless a
 * store is given) behind the real browser host, serving the built renderer
 * from dist/ (npm test builds it first).
 */
export interface TestAppOptions {
  readonly secrets?: SecretStore;
  readonly sandbox?: Omit<SandboxOptions, 'host' | 'port'>;
  /** Short client timeouts and read-back delays for fault tests. */
  readonly http?: AppServicesOptions['http'];
  readonly moneyCheckDelaysMs?: readonly number[];
  /** How long an unknown money outcome stays locked before a read-back not showing it done is final. */
  readonly moneyFinalAfterMs?: number;
  /** Puts files in the fresh data folder before the app starts (e.g. a settings file it cannot read). */
  readonly prepareDataDir?: (dataDir: string) => Promise<void>;
  /** As the app does by default: fill the replica in the background after each sign-in. */
  readonly refreshReplicaAtSignIn?: boolean;
  /** Shorter waits between the checks of the service's reachability (AppServicesOptions.serviceWatch). */
  readonly serviceWatch?: AppServicesOptions['serviceWatch'];
  /** Waited for by the host before it sends a renderer file (BrowserHostOptions.beforeFile). */
  readonly beforeFile?: (pathname: string) => Promise<void>;
  /** The first page's loading for each start of the services (AppServicesOptions.pageLoading), made by the test. */
  readonly pageLoading?: () => PageLoading;
}

/**
 * Removes a closed app's data folder. Close owns every write the services start (close-quiet.test.ts proves it);
 * a file that still lands as the folder goes (ENOTEMPTY: a write close did not own, e.g. a request of the test's
 * own still under way) is named on stderr, so the next full run says what it was, and the removal is tried again.
 */
async function removeClosedDataDir(dataDir: string): Promise<void> {
  try {
    await rm(dataDir, { recursive: true, force: true });
  } catch (error) {
    const left = await readdir(dataDir, { recursive: true }).catch(() => []);
    console.error(`test app: its data folder changed after close (${String(error)}); found: ${left.join(', ')}`);
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/** What a test's own request to the built-in sandbox must carry (its per-run secret), as the app's client sends it. */
export function sandboxAccess(services: AppServices): Record<string, string> {
  return { ...services.sandbox.headersFor(services.sandbox.url) };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-test-'));
  await options.prepareDataDir?.(dataDir);
  const secrets = options.secrets ?? (await workerKeychain());
  const startServices = async () => {
    const started = await createAppServices({
      dataDir,
      secrets,
      startSandbox: builtInSandbox({ controls: true, ...options.sandbox }),
      http: options.http,
      moneyCheckDelaysMs: options.moneyCheckDelaysMs,
      moneyFinalAfterMs: options.moneyFinalAfterMs,
      ...(options.refreshReplicaAtSignIn !== undefined ? { refreshReplicaAtSignIn: options.refreshReplicaAtSignIn } : {}),
      ...(options.pageLoading ? { pageLoading: options.pageLoading() } : {}),
      ...(options.serviceWatch ? { serviceWatch: options.serviceWatch } : {}),
    });
    // The app starts its sandbox when the Sandbox is chosen; tests drive its controls before that.
    await started.sandbox.start();
    return started;
  };
  let services = await startServices();
  const startHost = () =>
    startBrowserHost({
      handlers: services.handlers,
      events: services.events,
      rendererDir: resolve(DIST_DIR, 'renderer'),
      shimFile: resolve(DIST_DIR, 'host', 'api-shim.js'),
      reportInternal: (where, error) => services.logger.error(where, 'internal error', error),
      log: (line) => services.logger.warn('browser-host', line),
      pageLoading: services.pageLoading,
      ...(options.beforeFile ? { beforeFile: options.beforeFile } : {}),
    });
  let host = await startHost();
  return {
    get services() {
      return services;
    },
    get host() {
      return host;
    },
    dataDir,
    async restartHost() {
      await host.close();
      host = await startHost();
      return host;
    },
    async restartApp() {
      await host.close();
      await services.close();
      services = await startServices();
      host = await startHost();
      return host;
    },
    async close() {
      await host.close();
      await services.close();
      await removeClosedDataDir(dataDir);
    },
  };
}
