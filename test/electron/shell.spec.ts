import { expect, test, type ElectronApplication } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { CHANNELS } from '../../shared/ipc/channels.js';
import { appUnderTest, launchApp } from './launch.js';

/**
 * The real Electron shell. These run wherever an Electron binary exists (the
 * release workflow's matrix); on a machine without one they are reported as
 * not run, with the reason, rather than faked.
 */
const target = appUnderTest();
const alex = SANDBOX_USERS[0]!;

test.describe('Electron shell', () => {
  test.skip(target.executable === null, `Electron binary not available, so the Electron suite did not run: ${target.executable === null ? target.reason : ''}`);

  let app: ElectronApplication;
  let dataDir: string;

  test.beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-electron-'));
    if (target.executable === null) return;
    app = await launchApp(target, dataDir);
  });

  test.afterEach(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('the window is hardened', async () => {
    const page = await app.firstWindow();
    await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
    expect(page.url()).toBe('app://capacity-desk/index.html');
    // Sandboxed, isolated renderer: no Node, and only the contract's named groups on window.api.
    const probe = await page.evaluate(() => {
      const g = globalThis as unknown as { require?: unknown; process?: unknown; api: Record<string, unknown> };
      return { require: typeof g.require, process: typeof g.process, api: Object.keys(g.api).sort(), frozen: Object.isFrozen(g.api) };
    });
    expect(probe).toEqual({ require: 'undefined', process: 'undefined', api: [...new Set(CHANNELS.map((c) => c.split('.')[0]))].concat('on').sort(), frozen: true });
    // Navigation away and new windows are refused.
    await page.evaluate(() => {
      const g = globalThis as unknown as { open(url: string): unknown; location: { href: string } };
      g.open('https://example.com');
      g.location.href = 'https://example.com';
    });
    await page.waitForTimeout(500);
    expect(app.windows()).toHaveLength(1);
    expect(page.url()).toBe('app://capacity-desk/index.html');
    // Every permission request is denied.
    const permission = await page.evaluate(async () => {
      const g = globalThis as unknown as { navigator: { permissions: { query(d: { name: string }): Promise<{ state: string }> } } };
      return (await g.navigator.permissions.query({ name: 'geolocation' })).state;
    });
    expect(permission).not.toBe('granted');
  });

  test('a sandbox user signs in and sees linked accounts', async () => {
    const page = await app.firstWindow();
    await page.getByLabel('Username or e-mail').fill(alex.username);
    await page.getByLabel('Password').fill(alex.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Linked accounts' }).click();
    await expect(page.getByTestId('accounts-table')).toContainText(alex.linkedAccounts[0]!.accountId);
  });
});
