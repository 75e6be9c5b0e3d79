import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileRegistry } from '../../../electron/services/profiles/profile-registry.js';
import type { Owner } from '../../../electron/services/platform/owner.js';
import { SettingsStore } from '../../../electron/services/settings/settings-store.js';
import { MAX_REMEMBERED_CUSTOMERS, ProfileInput } from '../../../shared/ipc/profiles.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import { SANDBOX_TERMS, UNKNOWN_TERMS } from '../../../shared/money/agreement-terms.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function openRegistry(who: { owner: Owner | null } = { owner: null }): Promise<{ registry: ProfileRegistry; settings: SettingsStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-profiles-'));
  dirs.push(dir);
  const settings = new SettingsStore(dir);
  await settings.load();
  return { registry: new ProfileRegistry(settings, () => 'http://127.0.0.1:4010', () => who.owner), settings };
}

function messageOf(input: unknown): string | undefined {
  const parsed = ProfileInput.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe('profile base URLs', () => {
  it('require https for any host but this computer', () => {
    expect(messageOf({ name: 'Prod', baseUrl: 'http://api.example.com' })).toBe(
      'Use https:// for a service on another computer (plain http is only for localhost)',
    );
    for (const local of ['http://localhost:8080', 'http://127.0.0.1:4010', 'http://[::1]:9000']) {
      expect(messageOf({ name: 'Local', baseUrl: local })).toBeUndefined();
    }
    expect(ProfileInput.parse({ name: ' Prod ', baseUrl: 'https://api.example.com/base/' })).toEqual({
      name: 'Prod',
      baseUrl: 'https://api.example.com/base',
    });
  });

  it('refuse what is not a plain service address, with a clear message', () => {
    expect(messageOf({ name: 'x', baseUrl: 'api.example.com' })).toBe('Enter a full URL, e.g. https://api.example.com');
    expect(messageOf({ name: 'x', baseUrl: 'ftp://api.example.com' })).toBe('The URL must start with https://');
    expect(messageOf({ name: 'x', baseUrl: 'https://me:pw@api.example.com' })).toBe('Do not put a username or password in the URL');
    expect(messageOf({ name: 'x', baseUrl: 'https://api.example.com/?env=1' })).toBe('The base URL takes no ?query or #fragment');
    expect(messageOf({ name: '', baseUrl: 'https://api.example.com' })).toBe('Enter a name');
  });
});

describe('the profile registry', () => {
  it('lists the built-in Sandbox first, then saved profiles with stable readable ids', async () => {
    const { registry, settings } = await openRegistry();
    const staging = await registry.save({ name: 'Staging EU', baseUrl: 'https://staging.example.com' });
    const again = await registry.save({ name: 'Staging-EU 2', baseUrl: 'https://staging2.example.com' });
    expect(staging).toEqual({ id: 'staging-eu', name: 'Staging EU', baseUrl: 'https://staging.example.com', builtIn: false, lastCustomerIds: [], terms: UNKNOWN_TERMS });
    expect(again.id).toBe('staging-eu-2');
    expect(registry.list().map((p) => p.id)).toEqual(['sandbox', 'staging-eu', 'staging-eu-2']);

    const renamed = await registry.save({ id: 'staging-eu', name: 'Staging', baseUrl: 'https://staging.example.org' });
    expect(renamed).toMatchObject({ id: 'staging-eu', name: 'Staging', baseUrl: 'https://staging.example.org' });
    const file = JSON.parse(await readFile(settings.path, 'utf8')) as { profiles: unknown[] };
    expect(file.profiles).toHaveLength(2);
  });

  it('refuses duplicate names and any change to the Sandbox', async () => {
    const { registry } = await openRegistry();
    await registry.save({ name: 'Prod', baseUrl: 'https://api.example.com' });
    await expect(registry.save({ name: 'prod', baseUrl: 'https://other.example.com' })).rejects.toMatchObject({
      error: { kind: 'invalid-input', field: 'name' },
    });
    await expect(registry.save({ id: 'sandbox', name: 'Mine', baseUrl: 'https://x.example.com' })).rejects.toBeInstanceOf(AppFailure);
    await expect(registry.remove('sandbox')).rejects.toMatchObject({ error: { kind: 'invalid-input' } });
    await expect(registry.remove('nope')).rejects.toMatchObject({ error: { kind: 'not-found' } });
  });

  it('keeps each environment’s agreement terms with it, across a restart; the Sandbox has its own', async () => {
    const { registry, settings } = await openRegistry();
    expect(registry.find('sandbox')?.terms).toEqual(SANDBOX_TERMS);
    const created = await registry.save({ name: 'Prod', baseUrl: 'https://api.example.com' });
    expect(created.terms).toEqual(UNKNOWN_TERMS);
    const input = ProfileInput.parse({
      id: created.id,
      name: 'Prod',
      baseUrl: 'https://api.example.com',
      terms: {
        currency: ' eur ',
        cancellation: {
          kind: 'known',
          beforeLaunch: [
            { daysBeforeLaunch: 0, percent: 40 },
            { daysBeforeLaunch: 14, percent: 5 },
          ],
          afterLaunch: { percent: 100, ofRemainingWindow: false },
        },
      },
    });
    await registry.save(input);
    // A later save without terms (e.g. a rename) keeps them.
    await registry.save({ id: created.id, name: 'Production', baseUrl: 'https://api.example.com' });
    const reopened = new ProfileRegistry(settings, () => 'http://127.0.0.1:4010');
    await settings.load();
    const terms = reopened.find(created.id)?.terms;
    expect(terms?.currency).toBe('EUR');
    expect(terms?.cancellation).toEqual({
      kind: 'known',
      beforeLaunch: [
        { daysBeforeLaunch: 14, percent: 5 },
        { daysBeforeLaunch: 0, percent: 40 },
      ],
      afterLaunch: { percent: 100, ofRemainingWindow: false },
    });
  });

  it('refuses terms that are not a currency code or a usable schedule, with a clear message', () => {
    const base = { name: 'x', baseUrl: 'https://api.example.com' };
    const schedule = (beforeLaunch: unknown) => ({ kind: 'known', beforeLaunch, afterLaunch: { percent: 50, ofRemainingWindow: true } });
    expect(messageOf({ ...base, terms: { currency: 'US$', cancellation: { kind: 'unknown' } } })).toBe('A currency is a three-letter ISO 4217 code, e.g. USD or EUR');
    expect(messageOf({ ...base, terms: { currency: 'XYZ', cancellation: { kind: 'unknown' } } })).toBe('That is not an ISO 4217 currency code');
    expect(messageOf({ ...base, terms: { currency: null, cancellation: schedule([{ daysBeforeLaunch: 7, percent: 10 }]) } })).toBe(
      'Add a row for 0 days: the fee just before launch',
    );
    expect(messageOf({ ...base, terms: { currency: null, cancellation: schedule([{ daysBeforeLaunch: 0, percent: 101 }]) } })).toBe(
      'A fee is at most 100 % of the price',
    );
    expect(
      messageOf({
        ...base,
        terms: {
          currency: null,
          cancellation: schedule([
            { daysBeforeLaunch: 0, percent: 1 },
            { daysBeforeLaunch: 0, percent: 2 },
          ]),
        },
      }),
    ).toBe('Each number of days appears once');
  });

  it('remembers the last customer ids of the person in the profile, most recent first, without repeats', async () => {
    const { registry } = await openRegistry({ owner: { profileId: 'sandbox', username: 'alex' } });
    await registry.rememberCustomer('sandbox', 'CUST-1001');
    await registry.rememberCustomer('sandbox', 'CUST-1002');
    const sandbox = await registry.rememberCustomer('sandbox', 'CUST-1001');
    expect(sandbox.lastCustomerIds).toEqual(['CUST-1001', 'CUST-1002']);
    for (let i = 0; i < MAX_REMEMBERED_CUSTOMERS + 3; i++) await registry.rememberCustomer('sandbox', `C-${i}`);
    expect(registry.find('sandbox')?.lastCustomerIds).toHaveLength(MAX_REMEMBERED_CUSTOMERS);
    expect(registry.find('sandbox')?.lastCustomerIds[0]).toBe(`C-${MAX_REMEMBERED_CUSTOMERS + 2}`);
    await expect(registry.rememberCustomer('gone', 'C-1')).rejects.toMatchObject({ error: { kind: 'not-found' } });
  });

  it('never offers one user of an environment the customer ids another used (day17)', async () => {
    const who: { owner: Owner | null } = { owner: { profileId: 'sandbox', username: 'alex' } };
    const { registry, settings } = await openRegistry(who);
    await registry.rememberCustomer('sandbox', 'CUST-1001');
    who.owner = { profileId: 'sandbox', username: 'jordan' };
    expect(registry.find('sandbox')?.lastCustomerIds).toEqual([]);
    expect(registry.recentCustomerIds(who.owner)).toEqual([]);
    expect((await registry.rememberCustomer('sandbox', 'CUST-2002')).lastCustomerIds).toEqual(['CUST-2002']);
    who.owner = { profileId: 'sandbox', username: 'alex' };
    expect(registry.find('sandbox')?.lastCustomerIds).toEqual(['CUST-1001']);
    // Nobody in the profile: nothing shown, nothing remembered; the settings file names no user.
    who.owner = null;
    expect(registry.find('sandbox')?.lastCustomerIds).toEqual([]);
    await expect(registry.rememberCustomer('sandbox', 'CUST-3')).rejects.toMatchObject({ error: { kind: 'conflict' } });
    expect(JSON.stringify(settings.current)).not.toMatch(/alex|jordan/);
    // A list kept the older way (one for every user of the profile) is offered to nobody.
    await settings.update((s) => ({ ...s, lastCustomerIds: { sandbox: ['CUST-OLD'] } }));
    who.owner = { profileId: 'sandbox', username: 'jordan' };
    expect(registry.find('sandbox')?.lastCustomerIds).toEqual(['CUST-2002']);
  });

  it('forgets everything remembered for a removed profile and falls back to the Sandbox', async () => {
    const who: { owner: Owner | null } = { owner: null };
    const { registry, settings } = await openRegistry(who);
    const prod = await registry.save({ name: 'Prod', baseUrl: 'https://api.example.com' });
    who.owner = { profileId: prod.id, username: 'me@example.com' };
    await registry.rememberCustomer(prod.id, 'CUST-1');
    who.owner = null;
    await settings.update((s) => ({ ...s, activeProfileId: prod.id, lastUsernames: { [prod.id]: 'me@example.com' } }));
    expect(await registry.remove(prod.id)).toHaveLength(1);
    expect(settings.current).toMatchObject({ activeProfileId: 'sandbox', lastUsernames: {}, lastCustomerIds: {}, recentCustomerIds: {} });
  });
});
