import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SANDBOX_USERS } from './accounts.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from './server.js';

/**
 * The built-in Sandbox profile's server as the app's hosts hand it to the
 * main-process services: started on a free loopback port when the Sandbox is
 * first chosen, its state kept in the app's data folder. A loopback port is
 * open to every program and user of the computer, and the demo passwords are
 * published, so it answers only requests that carry a secret made for this run
 * (held by the main process, sent by its API client). Its test controls are off
 * unless the caller (tests) turns them on. The services take it as a starter,
 * so they never import the sandbox themselves.
 */
export function builtInSandbox(options: Omit<SandboxOptions, 'host' | 'port' | 'dataFile' | 'accessSecret'> = {}) {
  return {
    // Published demo credentials (docs/contract-choices.md): the sign-in screen offers them by name.
    demoAccounts: SANDBOX_USERS,
    start: (dataDir: string): Promise<SandboxHandle> =>
      startSandbox({
        dataFile: join(dataDir, 'sandbox-state.json'),
        ...options,
        host: '127.0.0.1',
        port: 0,
        accessSecret: randomBytes(32).toString('base64url'),
      }),
  };
}
