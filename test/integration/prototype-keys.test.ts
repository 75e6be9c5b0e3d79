/**
 * Text from a user, a file or the service is only ever a key,
 * never a way into Object.prototype. An environment named "Constructor" once
 * made `profiles.list` fail for good (also after a restart), and the same id
 * given to `offline.enter` switched the keychain to memory-only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Replica } from '../../electron/services/replica/replica.js';
import type { CapacityView } from '../../shared/api/capacity.js';
import type { CapacityWindow, SourcedCyberPage } from '../../shared/ipc/sourced.js';
import type { CyberPage, CyberView } from '../../shared/api/cyber.js';
import type { Preferences } from '../../shared/ipc/desktop.js';
import type { Profile } from '../../shared/ipc/profiles.js';
import type { SessionStatus } from '../../shared/ipc/session.js';
import type { Result } from '../../shared/ipc/result.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { KEYCHAIN_REQUIRED, realKeychain } from '../support/keychain.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';
import { readKind, readRecord } from '../../electron/services/replica/replica-reads.js';
import { writeRecord } from '../../electron/services/replica/replica-writes.js';

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
    // Customer ids are remembered for the person signed in to the environment (day17): nobody is, here.
    const remembered = await first.call('profiles.rememberCustomer', { profileId: 'constructor', customerId: 'CUST-1001' });
    expect(remembered).toMatchObject({ ok: false, error: { kind: 'conflict' } });
    await first.close();

    const second = await start({ dataDir: dir, secrets });
    const again = value<Profile[]>(await second.call('profiles.list', undefined));
    expect(again.map((p) => [p.id, p.name, p.lastCustomerIds])).toEqual([
      ['sandbox', 'Sandbox', []],
      ['constructor', 'Constructor', []],
    ]);
    // The Sandbox still signs in, and the app keeps answering.
    value(await second.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    expect(value<Profile[]>(await second.call('profiles.list', undefined))[0]?.lastUsername).toBe(ALEX.username);
  });
});

describe('the offline copy of opened policies', () => {
  it('keeps every entry when several are written through at once (the property test once lost one)', async () => {
    const app = await start({ dataDir: await dataDir(), secrets: new FixedSecretStore() });
    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    const first = value<CapacityWindow>(await app.call('capacity.list', { limit: 1 })).rows[0]!;
    const view = value<CapacityView>(await app.call('capacity.describe', { cidrId: first.cidrId }));
    const ids = ['__proto__', 'constructor', 'toString', first.cidrId, 'sc-1', 'sc-2'];
    await Promise.all(ids.map((id) => app.services.replica.write((r) => writeRecord(r, 'capacityViews', id, view))));
    for (const id of ids) expect((await app.services.replica.read((r) => readRecord(r, 'capacityViews', id)))?.value, id).toEqual(view);
  });
});

const keychain = await realKeychain();

/** What the app answers when its own code failed; hostile keys must never lead there. */
const isInternal = (result: Result<unknown>) => !result.ok && result.error.kind === 'internal';

/** Object.prototype as the test found it: its own names and what each holds. */
function prototypeSnapshot(): Array<[string, unknown]> {
  return Object.getOwnPropertyNames(Object.prototype)
    .sort()
    .map((name) => [name, Object.getOwnPropertyDescriptor(Object.prototype, name)?.value]);
}

describe('every lookup keyed by outside text (property-based)', () => {
  it('keeps working for prototype names and random text: profiles, usernames, customer and policy ids, cache records, preferences', async () => {
    const dir = await dataDir();
    const secrets = keychain.store ?? new FixedSecretStore();
    const app = await start({ dataDir: dir, secrets });
    const before = prototypeSnapshot();
    const keychainBefore = app.services.secrets.status;

    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    value(await app.call('profiles.rememberCustomer', { customerId: 'CUST-1001' }));
    value(await app.call('offline.sync', undefined));
    const someCapacity = value<CapacityWindow>(await app.call('capacity.list', { limit: 1 })).rows[0]!;
    const capacityView = value<CapacityView>(await app.call('capacity.describe', { cidrId: someCapacity.cidrId }));
    const someCyber = value<CyberPage>(await app.call('cyber.list', { customerId: 'CUST-1001', pageSize: 1 })).data[0]!;
    const cyberView = value<CyberView>(await app.call('cyber.view', { cidrId: someCyber.cidrId }));

    const hostileText = fc.oneof(
      fc.constantFrom(...PROTOTYPE_NAMES, 'Constructor', '__PROTO__', 'ToString', '__defineGetter__', 'isPrototypeOf'),
      fc.string({ minLength: 1, maxLength: 24 }),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/),
    );
    let n = 0;
    const written = new Set<string>();
    await fc.assert(
      fc.asyncProperty(hostileText, async (key) => {
        n += 1;
        // Profiles: create (the name gives the id), rename, list, remember a customer, remove.
        const created = await app.call('profiles.save', { name: `${key} ${n}`, baseUrl: 'https://env.example.com' });
        expect(isInternal(created), key).toBe(false);
        for (const result of [
          await app.call('profiles.save', { name: key, baseUrl: 'https://env.example.com' }),
          await app.call('profiles.rememberCustomer', { profileId: key, customerId: 'CUST-1001' }),
          await app.call('profiles.rememberCustomer', { profileId: 'sandbox', customerId: key }),
          await app.call('profiles.remove', { profileId: key }),
          // The offline copy of a profile id that names no profile, and the keychain behind it.
          await app.call('offline.enter', { profileId: key }),
          // The sandbox's own lookups over HTTP: username, customer id, policy id.
          await app.call('session.signIn', { profileId: 'sandbox', username: key, password: key }),
          await app.call('session.signIn', { profileId: key, username: ALEX.username, password: ALEX.password }),
          await app.call('cyber.list', { customerId: key }),
          await app.call('capacity.describe', { cidrId: key }),
          await app.call('cyber.view', { cidrId: key }),
          // Replica records keyed by policy and customer ids, read while working offline.
          await app.call('offline.enter', { profileId: 'sandbox' }),
          await app.call('capacity.describe', { cidrId: key }),
          await app.call('cyber.view', { cidrId: key }),
          await app.call('cyber.list', { customerId: key }),
          await app.call('capacity.list', { text: key }),
          await app.call('offline.leave', undefined),
          // Money locks are keyed by policy id.
          await app.call('money.state', { cidrId: key }),
          await app.call('money.check', { cidrId: key }),
          // Preferences: an unknown key is refused, never merged.
          await app.call('preferences.set', { [key]: true }),
        ]) {
          expect(isInternal(result), `${key}: ${JSON.stringify(result)}`).toBe(false);
        }
        if (created.ok) {
          const profile = created.value as Profile;
          const renamed = value<Profile>(await app.call('profiles.save', { id: profile.id, name: `${key} renamed ${n}`, baseUrl: 'https://env2.example.com' }));
          expect(renamed.id).toBe(profile.id);
          // Remembered only for the person signed in to the environment (day17): here, the Sandbox's.
          expect(await app.call('profiles.rememberCustomer', { profileId: profile.id, customerId: 'CUST-1002' })).toMatchObject({ ok: false, error: { kind: 'conflict' } });
          const remembered = value<Profile>(await app.call('profiles.rememberCustomer', { profileId: 'sandbox', customerId: 'CUST-1002' }));
          expect(remembered.lastCustomerIds[0]).toBe('CUST-1002');
          expect(renamed.name).toBe(`${key} renamed ${n}`.trim());
          expect(value<Profile[]>(await app.call('profiles.list', undefined)).find((p) => p.id === profile.id)?.name).toBe(renamed.name);
        }

        // Cache records take the key as an ordinary key, on disk too, and keep the others.
        await app.services.replica.write((r) => writeRecord(r, 'capacityViews', key, capacityView));
        await app.services.replica.write((r) => writeRecord(r, 'cyberViews', key, cyberView));
        expect((await app.services.replica.read((r) => readRecord(r, 'capacityViews', key)))?.value).toEqual(capacityView);
        expect((await app.services.replica.read((r) => readRecord(r, 'cyberViews', key)))?.value).toEqual(cyberView);
        written.add(key);

        // The app still answers correctly, and nothing reached Object.prototype.
        const listed = value<Profile[]>(await app.call('profiles.list', undefined));
        expect(listed[0]?.id).toBe('sandbox');
        expect(listed[0]?.lastUsername).toBe(ALEX.username);
        expect(value<SessionStatus>(await app.call('session.status', undefined))).toMatchObject({ signedIn: true, username: ALEX.username });
        expect(value<Preferences>(await app.call('preferences.get', undefined)).autoUpdate).toBe(true);
        expect(app.services.secrets.status).toEqual(keychainBefore);
        expect(prototypeSnapshot()).toEqual(before);
      }),
      { numRuns: 40, examples: [['constructor'], ['__proto__'], [' ']] },
    );

    // On disk too: a second open of the file reads every key written above as an ordinary key, beside the others.
    // One open for all of them (an open per run, its key fetched from the keychain, was most of the property's time).
    const reopened = await Replica.open({ dataDir: dir, secrets, owner: { profileId: 'sandbox', username: ALEX.username } });
    const views = (await readKind(reopened, 'capacityViews'))?.value ?? {};
    for (const key of written) expect(Object.hasOwn(views, key), key).toBe(true);
    expect(Object.hasOwn(views, someCapacity.cidrId)).toBe(true);
    expect(reopened.discarded).toBe(0);
    await reopened.close();

    // A sync with prototype-named customers in the recent list keeps the real ones.
    value(await app.call('profiles.rememberCustomer', { profileId: 'sandbox', customerId: 'CUST-1001' }));
    value(await app.call('offline.sync', undefined));
    value(await app.call('offline.enter', { profileId: 'sandbox' }));
    const offlineList = value<SourcedCyberPage>(await app.call('cyber.list', { customerId: 'CUST-1001' }));
    expect(offlineList.origin.source).toBe('replica');
    expect(offlineList.data.length).toBeGreaterThan(0);
    value(await app.call('offline.leave', undefined));

    // And the next start reads everything back: the same profiles, usernames and customers.
    // (The built-in Sandbox listens on a new port each start.)
    const withoutPort = (profiles: Profile[]) => profiles.map((p) => (p.builtIn ? { ...p, baseUrl: '' } : p));
    const profilesBefore = withoutPort(value<Profile[]>(await app.call('profiles.list', undefined)));
    expect(profilesBefore.length).toBeGreaterThan(1);
    await app.close();
    const again = await start({ dataDir: dir, secrets });
    expect(withoutPort(value<Profile[]>(await again.call('profiles.list', undefined)))).toEqual(profilesBefore);
    expect(value<SessionStatus>(await again.call('session.status', undefined))).toMatchObject({ signedIn: true, username: ALEX.username });
    expect(prototypeSnapshot()).toEqual(before);
  }, 180_000);
});

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

  it('a name that is not text is refused, and the keychain stays in use', async () => {
    if (!keychain.store) throw new Error('unreachable');
    const app = await start({ dataDir: await dataDir(), secrets: keychain.store });
    // What the old lookup handed over for "constructor" and "__proto__": keytar throws a TypeError on it.
    for (const account of [Object, Object.prototype, undefined, '']) {
      await expect(app.services.secrets.get('Capacity Desk (probe)', account as unknown as string)).rejects.toBeInstanceOf(TypeError);
    }
    expect(app.services.secrets.status).toEqual({ kind: 'keychain' });
    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    expect(value<{ keychain: { kind: string } }>(await app.call('session.status', undefined)).keychain.kind).toBe('keychain');
  });
});
