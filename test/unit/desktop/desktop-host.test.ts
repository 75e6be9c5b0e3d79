import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesktopHandlers } from '../../../electron/services/desktop/desktop-handlers.js';
import { createDesktopServices, type DesktopServices } from '../../../electron/services/desktop/desktop-services.js';
import { aboutPanel } from '../../../electron/services/desktop/about.js';
import { BROWSER_HOST_NOTIFICATIONS, BROWSER_HOST_UPDATES, browserDesktopHost } from '../../../electron/services/desktop/host.js';
import { readPackageVersion } from '../../../electron/services/desktop/package-version.js';
import { updatesUnavailableReason, type UpdateFacts } from '../../../electron/services/desktop/update-availability.js';
import { dispatch } from '../../../electron/services/ipc/dispatch.js';
import { AppEvents } from '../../../electron/services/events.js';
import { stubHandlers } from '../../support/stub-handlers.js';
import packageJson from '../../../package.json' with { type: 'json' };

let dataDir: string;
let desktop: DesktopServices | null = null;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-desktop-'));
});
afterEach(async () => {
  desktop?.stop();
  desktop = null;
  await rm(dataDir, { recursive: true, force: true });
});

async function browserHostServices() {
  const events = new AppEvents();
  const heard: Array<{ event: string; payload: unknown }> = [];
  events.subscribe((event, payload) => heard.push({ event, payload }));
  desktop = await createDesktopServices({
    host: browserDesktopHost(readPackageVersion()),
    dataDir,
    events,
    signedIn: () => true,
    loadPolicies: async () => [],
    report: () => undefined,
  });
  desktop.start();
  return { handlers: stubHandlers(createDesktopHandlers(desktop)), heard, desktop };
}

describe('desktop channels in the browser host', () => {
  it('app.info tells the version and that updates and notifications are not available here, and why', async () => {
    const { handlers } = await browserHostServices();
    const info = await dispatch(handlers, 'app.info', undefined);
    expect(info).toEqual({
      ok: true,
      value: expect.objectContaining({
        name: 'Capacity Desk',
        version: packageJson.version,
        host: 'browser',
        updates: { available: false, reason: BROWSER_HOST_UPDATES },
        notifications: { available: false, reason: BROWSER_HOST_NOTIFICATIONS },
      }),
    });
  });

  it('updates are disabled and say so; a check changes nothing', async () => {
    const { handlers } = await browserHostServices();
    const unavailable = { ok: true, value: { phase: 'unavailable', reason: BROWSER_HOST_UPDATES } };
    expect(await dispatch(handlers, 'updates.status', undefined)).toEqual(unavailable);
    expect(await dispatch(handlers, 'updates.check', undefined)).toEqual(unavailable);
    expect(await dispatch(handlers, 'updates.install', undefined)).toEqual(unavailable);
  });

  it('preferences go through the contract: validated, saved, and a bad patch refused', async () => {
    const { handlers } = await browserHostServices();
    expect(await dispatch(handlers, 'preferences.get', undefined)).toEqual({ ok: true, value: { autoUpdate: true, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] } });
    expect(await dispatch(handlers, 'preferences.set', { autoUpdate: false })).toEqual({ ok: true, value: { autoUpdate: false, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] } });
    const refused = await dispatch(handlers, 'preferences.set', { autoUpdate: false, updateFeed: 'https://evil.example' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(await dispatch(handlers, 'preferences.get', undefined)).toEqual({ ok: true, value: { autoUpdate: false, notifyPolicyDates: false, offlineRefreshMinutes: 0, reminderLeadDays: [] } });
  });

  it('commands reach the renderer as app.command events', async () => {
    const { heard, desktop: services } = await browserHostServices();
    services.command({ kind: 'go', view: 'accounts' });
    expect(heard).toContainEqual({ event: 'app.command', payload: { kind: 'go', view: 'accounts' } });
  });
});

describe('update availability of a copy', () => {
  const installed: UpdateFacts = {
    isPackaged: true,
    platform: 'win32',
    hasUpdateFeed: true,
    appImage: false,
    linuxPackage: false,
    disabledByEnv: false,
  };
  it('an installed release updates itself', () => {
    expect(updatesUnavailableReason(installed)).toBeNull();
    expect(updatesUnavailableReason({ ...installed, platform: 'linux', appImage: true })).toBeNull();
    expect(updatesUnavailableReason({ ...installed, platform: 'linux', linuxPackage: true })).toBeNull();
  });
  it('a source run, a test build, an unpacked Linux folder or the env switch do not', () => {
    expect(updatesUnavailableReason({ ...installed, isPackaged: false })).toMatch(/source tree/);
    expect(updatesUnavailableReason({ ...installed, hasUpdateFeed: false })).toMatch(/no update feed/);
    expect(updatesUnavailableReason({ ...installed, platform: 'linux' })).toMatch(/AppImage, deb or rpm/);
    expect(updatesUnavailableReason({ ...installed, disabledByEnv: true })).toMatch(/CAPACITY_DESK_DISABLE_UPDATES/);
  });
});

describe('About panel', () => {
  it('shows the app version and the runtime it is built on', () => {
    const panel = aboutPanel({ name: 'Capacity Desk', version: '1.4.2', electron: '45.4.1', chrome: '142.0.1', node: '22.20.0', year: 2026 });
    expect(panel).toEqual({
      applicationName: 'Capacity Desk',
      applicationVersion: '1.4.2',
      version: 'Electron 45.4.1',
      copyright: 'Copyright © 2026 Capacity Desk',
      credits: 'Electron 45.4.1 · Chromium 142.0.1 · Node.js 22.20.0',
    });
    expect(aboutPanel({ name: 'x', version: '1', electron: '1', chrome: '1', node: '1', year: 2026, iconPath: '/opt/icon.png' }).iconPath).toBe('/opt/icon.png');
  });
});
