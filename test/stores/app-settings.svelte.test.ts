import { hold, nth, push, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo, Preferences } from '../../shared/ipc/desktop.js';
import { appHealth } from '../../renderer/stores/app-health.svelte.js';
import { preferences } from '../../renderer/stores/preferences.svelte.js';
import { updates } from '../../renderer/stores/updates.svelte.js';
import { UNREACHABLE } from './support/fixtures.js';

const PREFS: Preferences = { autoUpdate: true, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] };
const INFO: AppInfo = {
  name: 'Capacity Desk',
  version: '1.0.0',
  host: 'browser',
  platform: 'linux',
  versions: {},
  updates: { available: false, reason: 'The browser host does not update itself.' },
  notifications: { available: true },
  sandbox: { available: true },
};
const REFUSED = { kind: 'invalid-input' as const, message: 'Change at least one preference' };

beforeEach(() => resetFakeApi());

describe('preferences', () => {
  it('reads both afresh on each opening; a change answers with what is now in force', async () => {
    const prefs = hold('preferences.get');
    const info = hold('app.info');
    const loading = preferences.load();
    nth(prefs, 0).ok(PREFS);
    nth(info, 0).ok(INFO);
    await loading;
    expect(preferences.preferences.value).toEqual(PREFS);
    expect(preferences.info.value?.host).toBe('browser');

    const sets = hold('preferences.set');
    const change = preferences.change({ notifyPolicyDates: true });
    expect(preferences.saving).toBe(true);
    nth(sets, 0).ok({ ...PREFS, notifyPolicyDates: true });
    await change;
    expect(preferences.saving).toBe(false);
    expect(preferences.preferences.value?.notifyPolicyDates).toBe(true);
  });

  it('a refused change keeps what is in force and says why, until the next change', async () => {
    const sets = hold('preferences.set');
    const before = preferences.preferences.value;
    const change = preferences.change({ offlineRefreshMinutes: 60, reminderLeadDays: [] });
    nth(sets, 0).fail(REFUSED);
    await change;
    expect(preferences.error).toEqual(REFUSED);
    expect(preferences.preferences.value).toEqual(before);
    const next = preferences.change({ offlineRefreshMinutes: 30, reminderLeadDays: [] });
    expect(preferences.saveError).toBeNull();
    nth(sets, 1).ok({ ...PREFS, offlineRefreshMinutes: 30, reminderLeadDays: [] });
    await next;
  });
});

describe('updates', () => {
  it('reads the state, then follows the events; a check shows "checking" until it answers', async () => {
    const status = hold('updates.status');
    const stop = updates.follow();
    nth(status, 0).ok({ phase: 'idle' });
    await settle();
    expect(updates.state).toEqual({ phase: 'idle' });
    push('updates.changed', { phase: 'downloading', version: '1.1.0', percent: 40 });
    expect(updates.state).toEqual({ phase: 'downloading', version: '1.1.0', percent: 40 });

    const checks = hold('updates.check');
    const check = updates.check();
    expect(updates.state).toEqual({ phase: 'checking' });
    expect(updates.busy).toBe(true);
    nth(checks, 0).fail(UNREACHABLE);
    await check;
    expect(updates.error).toEqual(UNREACHABLE);
    expect(updates.busy).toBe(false);

    stop();
    push('updates.changed', { phase: 'ready', version: '1.1.0' });
    expect(updates.state).toEqual({ phase: 'checking' });
  });
});

describe('app health', () => {
  it('holds the unreadable settings files and the contract drift, the newest read only', async () => {
    const files = hold('app.unreadableFiles');
    const loading = appHealth.loadUnreadableFiles();
    nth(files, 0).ok([{ file: '/data/preferences.json', keptAs: '/data/preferences.json.unreadable', reason: 'it is not valid JSON', at: '2026-11-23T03:00:00.000Z' }]);
    await loading;
    expect(appHealth.unreadableFiles.value).toHaveLength(1);

    const drift = hold('diagnostics.contractDrift');
    const older = appHealth.loadContractDrift();
    const newer = appHealth.loadContractDrift();
    nth(drift, 1).ok({ service: 'https://api.example.com', appVersion: '1.0.0', entries: [] });
    nth(drift, 0).ok({ service: 'https://stale.example.com', appVersion: '1.0.0', entries: [] });
    await Promise.all([older, newer]);
    expect(appHealth.contractDrift.value?.service).toBe('https://api.example.com');
  });
});
