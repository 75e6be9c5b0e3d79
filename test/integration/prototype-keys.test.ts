/**
 * Issue 13, item 2: text from a user, a file or the service is only ever a key,
 * never a way into Object.prototype. An environment named "Constructor" once
 * made `profiles.list` fail for good (also after a restart), and the same id
 * given to `offline.enter` switched the keychain to memory-only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../shared/ipc/models.js';
import type { Result } from '../../shared/ipc/result.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { KEYCHAIN_REQUIRED, realKeychain } from '../support/keychain.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

/** Names that read something from Object.prototype when used as a key of a plain object. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'] as const;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-proto-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(options: Parameters<typeof startFastApp>[0]): Promise<FastApp> {
  const app = await startFastApp(options);
  cleanups.push(() => app.close());
  return app;
}

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('an environment named after a property of Object.prototype', () => {
  it('"Constructor" is listed, remembered and survives a restart', async () => {
    const dir = await dataDir();
    const secrets = new FixedSecretStore();
    const first = await start({ dataDir: dir, secrets });
    const saved = value<Profile>(await first.call('profiles.save', { name: 'Constructor', baseUrl: 'https://constructor.example.com' }));
    expect(saved.id).toBe('constructor');
    expect(saved).not.toHaveProperty('lastUsername');
    expect(saved.lastCustomerIds).toEqual([]);
    const listed = value<Profile[]>(await first.call('profiles.list', undefined));
    expect(listed.map((p) => p.id)).toEqual(['sandbox', 'constructor']);
    const remembered = value<Profile>(await first.call('profiles.rememberCustomer', { profileId: 'constructor', customerId: 'CUST-1001' }));
    expect(remembered.lastCustomerIds).toEqual(['CUST-1001']);
    await first.close();

    const second = await start({ dataDir: dir, secrets });
    const again = value<Profile[]>(await second.call('profiles.list', undefined));
    expect(again.map((p) => [p.id, p.name, p.lastCustomerIds])).toEqual([
      ['sandbox', 'Sandbox', []],
      ['constructor', 'Constructor', ['CUST-1001']],
    ]);
    // The Sandbox still signs in, and the app keeps answering.
    value(await second.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    expect(value<Profile[]>(await second.call('profiles.list', undefined))[0]?.lastUsername).toBe(ALEX.username);
  });
});

const keychain = await realKeychain();

describe.skipIf(keychain.store === null && !KEYCHAIN_REQUIRED)('offline.enter with a prototype name (real keychain)', () => {
  it('answers "no offline copy" and leaves the keychain in use', async () => {
    if (!keychain.store) throw new Error('unreachable');
    const app = await start({ dataDir: await dataDir(), secrets: keychain.store });
    for (const profileId of PROTOTYPE_NAMES) {
      const result = await app.call('offline.enter', { profileId });
      expect(result, profileId).toMatchObject({ ok: false, error: { kind: 'not-found' } });
      expect(app.services.secrets.status, profileId).toEqual({ kind: 'keychain' });
    }
    const status = value<{ keychain: { kind: string } }>(await app.call('session.status', undefined));
    expect(status.keychain.kind).toBe('keychain');
  });
});
