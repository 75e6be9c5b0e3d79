/**
 * What the smoke launch proves beyond the page and the preload: both native
 * modules load in the shipped app and work. A throw-away replica is opened
 * (better-sqlite3-multiple-ciphers, SQLCipher) and a secret is written, read
 * back and deleted in the OS keychain (keytar). A keychain that is simply not
 * there (no Secret Service on a bare Linux) is a pass unless the launcher
 * requires one (CAPACITY_DESK_SMOKE_KEYCHAIN=required, set by the workflows,
 * which start one); a module that does not load never is.
 */
export const SMOKE_KEYCHAIN_ENV = 'CAPACITY_DESK_SMOKE_KEYCHAIN';

export interface SelfCheckDeps {
  /** Opens, writes, reads and closes an encrypted database in a throw-away folder. */
  readonly replicaRoundTrip: () => Promise<void>;
  /** Loads keytar (throws when its native module does not load). */
  readonly loadKeychain: () => { set(service: string, account: string, secret: string): Promise<void>; get(service: string, account: string): Promise<string | null>; delete(service: string, account: string): Promise<boolean> };
  readonly keychainRequired: boolean;
  readonly random: () => string;
}

export type SelfCheck = { readonly ok: true; readonly keychain: string } | { readonly ok: false; readonly reason: string };

const SERVICE = 'Capacity Desk smoke check';

export async function runSelfCheck(deps: SelfCheckDeps): Promise<SelfCheck> {
  try {
    await deps.replicaRoundTrip();
  } catch (error) {
    return { ok: false, reason: `the replica database (better_sqlite3.node) did not work: ${text(error)}` };
  }
  let keychain: ReturnType<SelfCheckDeps['loadKeychain']>;
  try {
    keychain = deps.loadKeychain();
  } catch (error) {
    return { ok: false, reason: `the keychain module (keytar.node) did not load: ${text(error)}` };
  }
  const account = `smoke-${deps.random()}`;
  const secret = `secret-${deps.random()}`;
  try {
    await keychain.set(SERVICE, account, secret);
    const read = await keychain.get(SERVICE, account);
    await keychain.delete(SERVICE, account);
    if (read !== secret) return { ok: false, reason: 'the keychain gave back something other than what was saved' };
    return { ok: true, keychain: 'round trip ok' };
  } catch (error) {
    if (deps.keychainRequired) return { ok: false, reason: `the keychain round trip failed: ${text(error)}` };
    return { ok: true, keychain: `module loaded; no keychain to use here (${text(error)})` };
  }
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
