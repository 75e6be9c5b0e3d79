/**
 * A sandbox started in-process with its test controls, and an ApiClient
 * pointed at it, for the client's tests over real HTTP. Timeouts and retry
 * delays are short so fault tests stay fast.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, type RequestTimeouts } from '../../../electron/services/api-client/api-client.js';
import { DEFAULT_TIMEOUTS } from '../../../electron/services/api-client/http-agent.js';
import { builtInSandbox } from '../../../sandbox/built-in.js';
import { createAppServices, type AppServices } from '../../../electron/services/app-services.js';
import { sandboxAccess } from '../../support/test-app.js';
import { dispatch } from '../../../electron/services/ipc/dispatch.js';
import { MemorySecretStore } from '../../../electron/services/secrets/memory-secret-store.js';
import type { SecretStore } from '../../../electron/services/secrets/secret-store.js';
import type { Channel } from '../../../shared/ipc/channels.js';
import type { Result } from '../../../shared/ipc/result.js';
import type { RetryPolicy } from '../../../electron/services/api-client/retry-policy.js';
import type { EndpointName } from '../../../shared/api/endpoints.js';
import { SANDBOX_USERS, type SandboxUser } from '../../../sandbox/accounts.js';
import type { FaultRuleInput } from '../../../sandbox/controls/faults.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../../sandbox/server.js';

export const ALEX = SANDBOX_USERS[0] as SandboxUser;
export const JORDAN = SANDBOX_USERS[1] as SandboxUser;

export const FAST_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 };
/** undici checks these on a coarse (about half-second) timer, so a timeout fires up to ~0.5 s late. */
export const SHORT_TIMEOUTS: RequestTimeouts = { headersMs: 200, bodyMs: 200 };
/**
 * The fast app's timeouts for tests of what a timeout does (startFastApp({ shortTimeouts: true })). Any other
 * test, and every set-up sign-in, gets the app's own: a sign-in (scrypt, CPU-bound) took longer than 750 ms at
 * load 14-17 and longer than 1.5 s at load 20-22, and failed tests it was only the set-up of. A fault meant to
 * time out holds its answer back well past 2 s (this, plus undici's coarse half-second timer).
 */
const SHORT_APP_TIMEOUTS: RequestTimeouts = { headersMs: 1_500, bodyMs: 1_500 };

/**
 * How long a fault holds back a money answer that must land after the fast app's timeout (1.5 s, fired up to
 * half a second late) and after its default read-backs (0, 0.3 and 1.3 s later): seconds to spare on a loaded
 * machine, where timers fire late. At 3 s the last read-back could already see the action done.
 */
export const AFTER_READ_BACKS_MS = 6_000;

export interface ClientSandbox {
  readonly sandbox: SandboxHandle;
  readonly client: ApiClient;
  signIn(user?: SandboxUser): Promise<string>;
  addFault(rule: FaultRuleInput): Promise<void>;
  clearFaults(): Promise<void>;
  stats(): Promise<Record<EndpointName, number>>;
  resetStats(): Promise<void>;
  setClock(body: { now?: string; advanceSeconds?: number; frozen?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export async function startClientSandbox(
  options: { sandbox?: SandboxOptions; timeouts?: RequestTimeouts; retry?: RetryPolicy } = {},
): Promise<ClientSandbox> {
  const sandbox = await startSandbox({ controls: true, ...options.sandbox });
  const client = new ApiClient({
    baseUrl: sandbox.url,
    timeouts: options.timeouts ?? SHORT_TIMEOUTS,
    retry: options.retry ?? FAST_RETRY,
  });
  // The sign-in (scrypt, CPU-bound) is the tests' set-up, not what they test: it gets the app's test timeouts,
  // so a loaded machine does not fail a fault test before it starts.
  const signInClient = new ApiClient({ baseUrl: sandbox.url, timeouts: DEFAULT_TIMEOUTS, retry: options.retry ?? FAST_RETRY });
  const controls = sandboxControls(sandbox.url);
  return {
    sandbox,
    client,
    async signIn(user = ALEX) {
      const answer = await signInClient.call('signIn', { body: { username: user.username, password: user.password } });
      return answer.access_token;
    },
    ...controls,
    async close() {
      await client.close();
      await signInClient.close();
      await sandbox.close();
    },
  };
}

/** Talks to a sandbox's test controls. */
export function sandboxControls(url: string, access: Readonly<Record<string, string>> = {}) {
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${url}/sandbox${path}`, {
      method,
      headers: { ...access, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`sandbox control ${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  return {
    addFault: async (rule: FaultRuleInput) => void (await control('POST', '/faults', rule)),
    clearFaults: async () => void (await control('DELETE', '/faults')),
    /** Answers made and held back now by a holdAnswers rule (they go when the faults are cleared). */
    heldAnswers: async () => ((await control('GET', '/faults')) as { held: number }).held,
    stats: async () => (await control('GET', '/stats')) as Record<EndpointName, number>,
    resetStats: async () => void (await control('POST', '/stats/reset')),
    setClock: async (body: { now?: string; advanceSeconds?: number; frozen?: boolean }) => void (await control('POST', '/clock', body)),
    /** Gives a user's linked account another name; the policies held in it follow (as the service's do). */
    renameAccount: async (body: { username: string; accountId: string; accountName: string }) => void (await control('POST', '/rename-account', body)),
  };
}

export interface FastApp {
  readonly services: AppServices;
  readonly controls: ReturnType<typeof sandboxControls>;
  /** One IPC call through the real dispatch path. */
  call(channel: Channel, input?: unknown): Promise<Result<unknown>>;
  /**
   * Signs in as a test's set-up, and fails unless it succeeds. Under the short timeouts a sign-in (one scrypt on
   * the sandbox) can outlast the 1.5 s header timeout on a loaded machine: a sign-in that timed out is asked
   * again, because the timeouts are the subject of the money calls after it, never of this one.
   */
  signIn(profileId: string, user: { readonly username: string; readonly password: string }): Promise<void>;
  close(): Promise<void>;
}

/** How often a set-up sign-in that timed out is asked again. */
const SET_UP_SIGN_IN_ATTEMPTS = 5;

/**
 * The real main-process services on their in-process sandbox (controls on),
 * with short retry delays, the app's own timeouts (short ones for tests of
 * timeouts: shortTimeouts), and the keychain given (memory unless a test needs
 * the real one).
 */
export async function startFastApp(
  options: {
    secrets?: SecretStore;
    dataDir?: string;
    moneyCheckDelaysMs?: readonly number[];
    moneyFinalAfterMs?: number;
    /** Fill the replica in the background after each sign-in, as the app does (off here: most tests count requests). */
    refreshReplicaAtSignIn?: boolean;
    /** The app's own check of the service when nothing was heard for a while (off here: it is a request no test asked for). */
    watchService?: boolean;
    /** Tests of what a timeout does: the short timeouts (SHORT_APP_TIMEOUTS) instead of the app's own. */
    shortTimeouts?: boolean;
    /** With shortTimeouts: the deadline of each whole call (the app's default is much longer). */
    totalMs?: number;
  } = {},
): Promise<FastApp> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'capacity-desk-client-')));
  const services = await createAppServices({
    dataDir,
    secrets: options.secrets ?? new MemorySecretStore('tests use a memory store'),
    startSandbox: builtInSandbox({ controls: true }),
    http: {
      timeouts: options.shortTimeouts
        ? { connectMs: 2_000, ...SHORT_APP_TIMEOUTS, ...(options.totalMs !== undefined ? { totalMs: options.totalMs } : {}) }
        : DEFAULT_TIMEOUTS,
      retry: FAST_RETRY,
    },
    moneyCheckDelaysMs: options.moneyCheckDelaysMs ?? [0, 300, 1_300],
    refreshReplicaAtSignIn: options.refreshReplicaAtSignIn ?? false,
    watchService: options.watchService ?? false,
    ...(options.moneyFinalAfterMs !== undefined ? { moneyFinalAfterMs: options.moneyFinalAfterMs } : {}),
  });
  // The app starts its sandbox when the Sandbox is chosen; tests drive its controls before that.
  await services.sandbox.start();
  const call: FastApp['call'] = (channel, input) => dispatch(services.handlers, channel, input, (where, error) => console.error(where, error));
  return {
    services,
    controls: sandboxControls(services.sandbox.url, sandboxAccess(services)),
    call,
    async signIn(profileId, user) {
      for (let attempt = 1; ; attempt += 1) {
        const result = await call('session.signIn', { profileId, username: user.username, password: user.password });
        if (result.ok) return;
        if (result.error.kind !== 'timeout' || attempt >= SET_UP_SIGN_IN_ATTEMPTS) throw new Error(`set-up sign-in failed: ${JSON.stringify(result.error)}`);
      }
    },
    async close() {
      await services.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fast app signed in as Alex on the sandbox, its copy filled (the sync's end awaited): for tests that read the copy. */
export async function startSyncedFastApp(options: Parameters<typeof startFastApp>[0] = {}): Promise<FastApp> {
  const app = await startFastApp(options);
  await app.signIn('sandbox', ALEX);
  const synced = await app.call('offline.sync');
  if (!synced.ok) throw new Error(`the set-up sync failed: ${synced.error.message}`);
  return app;
}
