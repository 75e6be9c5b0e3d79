import { join } from 'node:path';
import { SANDBOX_USERS, type SandboxUser } from './accounts.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from './server.js';

/**
 * The built-in Sandbox profile's server as the app's hosts hand it to the
 * main-process services: started on a free loopback port, its state kept in
 * the app's data folder. The services take it as a starter, so they never
 * import the sandbox themselves.
 */
export function builtInSandbox(
  options: Omit<SandboxOptions, 'host' | 'port' | 'dataFile'> = {},
): (dataDir: string) => Promise<SandboxHandle & { readonly demoAccounts: readonly SandboxUser[] }> {
  return async (dataDir) => {
    const handle = await startSandbox({ dataFile: join(dataDir, 'sandbox-state.json'), ...options, host: '127.0.0.1', port: 0 });
    // Published demo credentials (docs/contract-choices.md): the sign-in screen offers them by name.
    return Object.assign(handle, { demoAccounts: SANDBOX_USERS });
  };
}
