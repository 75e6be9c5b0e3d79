import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../sandbox/server.js';
import { ApiClient } from './api-client/api-client.js';
import { createHttpAgent } from './api-client/http-agent.js';
import { AppEvents } from './events.js';
import { createHandlers } from './ipc/create-handlers.js';
import { InFlightGuard } from './money/in-flight-guard.js';
import type { Handlers } from './ipc/handlers.js';
import { ProfileRegistry } from './profiles/profile-registry.js';
import { openSecretStore } from './secrets/open-secret-store.js';
import type { SecretStore } from './secrets/secret-store.js';
import { SessionService } from './session/session-service.js';
import { SettingsStore } from './settings/settings-store.js';

export interface AppServicesOptions {
  readonly dataDir: string;
  /** Tests pass a store; the app opens the OS keychain. */
  readonly secrets?: SecretStore;
  /** Options of the built-in Sandbox profile's in-process server. */
  readonly sandbox?: Omit<SandboxOptions, 'host' | 'port'>;
}

export interface AppServices {
  readonly handlers: Handlers;
  readonly events: AppEvents;
  readonly session: SessionService;
  readonly sandbox: SandboxHandle;
  readonly secrets: SecretStore;
  readonly dataDir: string;
  close(): Promise<void>;
}

/** The composition root of the main process, shared by the Electron and browser hosts. */
export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  const settings = new SettingsStore(options.dataDir);
  await settings.load();
  const [secrets, sandbox] = await Promise.all([
    options.secrets ? Promise.resolve(options.secrets) : openSecretStore(),
    startSandbox({ dataFile: join(options.dataDir, 'sandbox-state.json'), ...options.sandbox, host: '127.0.0.1', port: 0 }),
  ]);
  const agent: Dispatcher = createHttpAgent();
  const clients = new Map<string, ApiClient>();
  const clientFor = (baseUrl: string): ApiClient => {
    let client = clients.get(baseUrl);
    if (!client) {
      client = new ApiClient({ baseUrl, dispatcher: agent });
      clients.set(baseUrl, client);
    }
    return client;
  };
  const events = new AppEvents();
  const profiles = new ProfileRegistry(settings, () => sandbox.url);
  const session = new SessionService({ secrets, settings, profiles, events, clientFor });
  await session.restore();
  const handlers = createHandlers({ profiles, session, moneyGuard: new InFlightGuard() });

  return {
    handlers,
    events,
    session,
    sandbox,
    secrets,
    dataDir: options.dataDir,
    async close() {
      await Promise.allSettled([agent.close(), sandbox.close()]);
    },
  };
}
