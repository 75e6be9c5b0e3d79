import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PreferencesPatch, type Preferences } from '../../../shared/ipc/desktop.js';
import { DEFAULT_PREFERENCES, PREFERENCES_FILE, PreferencesStore } from '../../../electron/services/preferences/preferences-store.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-preferences-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('preferences', () => {
  it('start with updates on and notifications off (opt-in)', async () => {
    expect(await new PreferencesStore(dataDir).load()).toEqual({ autoUpdate: true, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] });
    expect(DEFAULT_PREFERENCES).toEqual({ autoUpdate: true, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] });
  });

  it('persist a change and announce it, once', async () => {
    const store = new PreferencesStore(dataDir);
    await store.load();
    const heard: Preferences[] = [];
    store.subscribe((preferences) => heard.push(preferences));
    expect(await store.update({ notifyPolicyDates: true })).toEqual({ autoUpdate: true, notifyPolicyDates: true, offlineRefreshMinutes: 0, reminderLeadDays: [] });
    await store.update({ notifyPolicyDates: true });
    expect(heard).toEqual([{ autoUpdate: true, notifyPolicyDates: true, offlineRefreshMinutes: 0, reminderLeadDays: [] }]);
    expect(JSON.parse(await readFile(join(dataDir, PREFERENCES_FILE), 'utf8'))).toEqual({ version: 1, autoUpdate: true, notifyPolicyDates: true, offlineRefreshMinutes: 0, reminderLeadDays: [] });
    expect(await new PreferencesStore(dataDir).load()).toEqual({ autoUpdate: true, notifyPolicyDates: true, offlineRefreshMinutes: 0, reminderLeadDays: [] });
  });

  it('fall back field by field when the file is damaged', async () => {
    await writeFile(join(dataDir, PREFERENCES_FILE), JSON.stringify({ version: 7, autoUpdate: false, notifyPolicyDates: 'yes' }));
    expect(await new PreferencesStore(dataDir).load()).toEqual({ autoUpdate: false, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] });
    await writeFile(join(dataDir, PREFERENCES_FILE), 'not json');
    expect(await new PreferencesStore(dataDir).load()).toEqual(DEFAULT_PREFERENCES);
  });

  it('accept only known preferences with the right types from the renderer', () => {
    expect(PreferencesPatch.safeParse({ autoUpdate: false }).success).toBe(true);
    expect(PreferencesPatch.safeParse({}).success).toBe(false);
    expect(PreferencesPatch.safeParse({ autoUpdate: 'false' }).success).toBe(false);
    expect(PreferencesPatch.safeParse({ autoUpdate: true, feedUrl: 'https://evil.example' }).success).toBe(false);
    expect(PreferencesPatch.safeParse({ offlineRefreshMinutes: 60, reminderLeadDays: [] }).success).toBe(true);
    expect(PreferencesPatch.safeParse({ offlineRefreshMinutes: 1, reminderLeadDays: [] }).success).toBe(false);
  });
});
