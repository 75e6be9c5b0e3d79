/**
 * A settings file the app cannot read (a newer version's
 * after a downgrade, a damaged one) is never written over. It is moved aside
 * beside the original before anything new is written, the event is logged,
 * and the renderer can tell the person where it is and that defaults are in use.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotificationLedger, LEDGER_FILE } from '../../electron/services/desktop/notification-ledger.js';
import { WINDOW_STATE_FILE, WindowStateStore } from '../../electron/services/desktop/window-state-store.js';
import { DEFAULT_PREFERENCES, PREFERENCES_FILE, PreferencesStore } from '../../electron/services/preferences/preferences-store.js';
import { UNREADABLE_SUFFIX } from '../../electron/services/settings/json-file.js';
import { SettingsStore } from '../../electron/services/settings/settings-store.js';
import type { Profile } from '../../shared/ipc/profiles.js';
import type { UnreadableFile } from '../../shared/ipc/unreadable-files.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-unreadable-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dir: string): Promise<FastApp> {
  const app = await startFastApp({ dataDir: dir, secrets: new FixedSecretStore() });
  cleanups.push(() => app.close());
  return app;
}

/** The files kept aside next to `name` in the folder. */
async function keptAside(dir: string, name: string): Promise<string[]> {
  return (await readdir(dir)).filter((file) => file.startsWith(`${name}${UNREADABLE_SUFFIX}`)).map((file) => join(dir, file));
}

/** What a newer Capacity Desk might write: version 2, with the user's environments. */
const NEWER_SETTINGS = JSON.stringify(
  {
    version: 2,
    activeProfileId: 'prod-eu',
    profiles: [{ id: 'prod-eu', name: 'Prod EU', baseUrl: 'https://api.example.com', region: 'eu' }],
    lastUsernames: { 'prod-eu': 'sam@example.com' },
    lastCustomerIds: { 'prod-eu': ['CUST-9'] },
  },
  null,
  2,
);

describe('a settings.json this version cannot read', () => {
  it('from a newer version is kept aside before the next write, logged, and reported to the renderer', async () => {
    const dir = await dataDir();
    await writeFile(join(dir, 'settings.json'), NEWER_SETTINGS);
    const app = await start(dir);

    // The next write (a new environment) must not take the user's environments with it.
    value<Profile>(await app.call('profiles.save', { name: 'Staging', baseUrl: 'https://staging.example.com' }));
    const aside = await keptAside(dir, 'settings.json');
    expect(aside).toHaveLength(1);
    expect(await readFile(aside[0] as string, 'utf8')).toBe(NEWER_SETTINGS);
    const current = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as { version: number; profiles: Array<{ id: string }> };
    expect(current.version).toBe(1);
    expect(current.profiles.map((p) => p.id)).toEqual(['staging']);

    const notices = value<UnreadableFile[]>(await app.call('app.unreadableFiles', undefined));
    expect(notices).toEqual([
      {
        file: join(dir, 'settings.json'),
        keptAs: aside[0],
        reason: 'it was written by a newer version of Capacity Desk (file version 2)',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    await app.services.logger.flush();
    const logs = await Promise.all((await readdir(app.services.logger.dir)).map((f) => readFile(join(app.services.logger.dir, f), 'utf8')));
    expect(logs.join('\n')).toContain(`${join(dir, 'settings.json')} could not be read: it was written by a newer version`);
    expect(logs.join('\n')).toContain(`Kept aside as ${aside[0]}`);
  });

  it('damaged or of another shape is kept aside too; a readable one is kept in place with no notice', async () => {
    for (const [text, reason] of [
      ['{"version": 1, "profiles": [', 'it is not valid JSON (damaged or cut short)'],
      ['{"version": 1, "profiles": "Prod EU"}', 'its content is not what this version of Capacity Desk expects'],
    ] as const) {
      const dir = await dataDir();
      await writeFile(join(dir, 'settings.json'), text);
      const heard: UnreadableFile[] = [];
      const settings = new SettingsStore(dir, (event) => heard.push(event));
      expect((await settings.load()).profiles).toEqual([]);
      const aside = await keptAside(dir, 'settings.json');
      expect(heard).toEqual([{ file: join(dir, 'settings.json'), keptAs: aside[0], reason, at: expect.any(String) }]);
      expect(await readFile(aside[0] as string, 'utf8')).toBe(text);
      await settings.update((s) => ({ ...s, activeProfileId: 'sandbox' }));
      expect(await readFile(aside[0] as string, 'utf8')).toBe(text);
    }

    const dir = await dataDir();
    const good = JSON.stringify({ version: 1, activeProfileId: 'sandbox', profiles: [], lastUsernames: { sandbox: 'a@example.com' } });
    await writeFile(join(dir, 'settings.json'), good);
    const heard: UnreadableFile[] = [];
    expect((await new SettingsStore(dir, (event) => heard.push(event)).load()).lastUsernames).toEqual({ sandbox: 'a@example.com' });
    expect(heard).toEqual([]);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });
});

describe('every settings-like file follows the same rule', () => {
  it('preferences, the notification ledger and the window state are kept aside when unreadable', async () => {
    const dir = await dataDir();
    const heard: UnreadableFile[] = [];
    const report = (event: UnreadableFile) => heard.push(event);

    // Preferences from a newer version: the fields that are still good are used, and the file is kept whole.
    const newerPreferences = JSON.stringify({ version: 3, autoUpdate: false, notifyPolicyDates: 'weekly' });
    await writeFile(join(dir, PREFERENCES_FILE), newerPreferences);
    const preferences = new PreferencesStore(dir, report);
    expect(await preferences.load()).toEqual({ ...DEFAULT_PREFERENCES, autoUpdate: false });
    await preferences.update({ notifyPolicyDates: true });

    const ledgerText = '{"version":1,"sent":{"a":"not a date"}}';
    await writeFile(join(dir, LEDGER_FILE), ledgerText);
    const ledger = new NotificationLedger(dir, report);
    await ledger.load();
    expect([...ledger.keys()]).toEqual([]);
    await ledger.record([{ key: 'b', at: new Date(Date.now() + 60_000) }], new Date());

    await writeFile(join(dir, WINDOW_STATE_FILE), '{"x": 1, "y": 2, "width": -5');
    expect(await new WindowStateStore(dir, report).load()).toBeNull();

    expect(heard.map((e) => [e.file, e.reason])).toEqual([
      [join(dir, PREFERENCES_FILE), 'it was written by a newer version of Capacity Desk (file version 3)'],
      [join(dir, LEDGER_FILE), 'its content is not what this version of Capacity Desk expects'],
      [join(dir, WINDOW_STATE_FILE), 'it is not valid JSON (damaged or cut short)'],
    ]);
    expect(await readFile((await keptAside(dir, PREFERENCES_FILE))[0] as string, 'utf8')).toBe(newerPreferences);
    expect(await readFile((await keptAside(dir, LEDGER_FILE))[0] as string, 'utf8')).toBe(ledgerText);
    expect(await keptAside(dir, WINDOW_STATE_FILE)).toHaveLength(1);
  });

  it('an older preferences file without the newer fields is read in place, with no notice', async () => {
    const dir = await dataDir();
    await writeFile(join(dir, PREFERENCES_FILE), JSON.stringify({ version: 1, autoUpdate: false }));
    const heard: UnreadableFile[] = [];
    expect(await new PreferencesStore(dir, (event) => heard.push(event)).load()).toEqual({ ...DEFAULT_PREFERENCES, autoUpdate: false });
    expect(heard).toEqual([]);
    expect(await readdir(dir)).toEqual([PREFERENCES_FILE]);
  });
});
