import { expect, test, type ElectronApplication } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { smokeLaunch } from '../../scripts/lib/smoke-launch.js';
import { appEnv, appUnderTest, launchApp } from './launch.js';

/**
 * Desktop integration in the real Electron shell: one instance per
 * data folder, the window's place remembered, the application menu, the
 * About facts and the update status. Runs wherever an Electron binary (or the
 * packaged test build) exists; reported as not run elsewhere.
 */
const target = appUnderTest();
const alex = SANDBOX_USERS[0]!;
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

test.describe('Desktop integration', () => {
  test.skip(target.executable === null, `Electron binary not available, so the Electron suite did not run: ${target.executable === null ? target.reason : ''}`);

  let dataDir: string;
  const running: ElectronApplication[] = [];

  async function launch(): Promise<ElectronApplication> {
    if (target.executable === null) throw new Error('unreachable: skipped');
    const app = await launchApp(target, dataDir);
    running.push(app);
    return app;
  }

  async function signIn(app: ElectronApplication): Promise<void> {
    const page = await app.firstWindow();
    await page.getByLabel('Username or e-mail').fill(alex.username);
    await page.getByLabel('Password').fill(alex.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('signed-in-user')).toHaveText(alex.username);
  }

  const mainBounds = (app: ElectronApplication) =>
    app.evaluate(({ BrowserWindow }) => {
      const window = BrowserWindow.getAllWindows()[0]!;
      return { ...window.getNormalBounds(), visible: window.isVisible() };
    });

  test.beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-desktop-'));
  });

  test.afterEach(async () => {
    for (const app of running.splice(0)) await app.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  test('a second launch on the same data folder exits and brings the first window back', async () => {
    if (target.executable === null) return;
    const app = await launch();
    await (await app.firstWindow()).waitForLoadState('domcontentloaded');
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.hide());
    expect((await mainBounds(app)).visible).toBe(false);

    // Spawned without Playwright's switches, like a user's second click: on Linux it needs a working
    // Chromium sandbox (the workflows lift Ubuntu's AppArmor user-namespace restriction for it).
    const second = spawn(target.executable, [...target.args], { env: appEnv(dataDir), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code, `the second launch failed:\n${stderr}`).toBe(0);

    await expect.poll(async () => (await mainBounds(app)).visible, { timeout: 10_000 }).toBe(true);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('CAPACITY_DESK_SMOKE=1 quits 0 once the page loaded and the preload answered (the release smoke launch)', async () => {
    if (target.executable === null) return;
    const outcome = await smokeLaunch(target.executable, target.args);
    expect(outcome.passed, `${outcome.summary}\n${outcome.output}`).toBe(true);
    expect(outcome.summary).toBe(`ok: version ${packageJson.version} on ${process.platform}`);
  });

  test('the window reopens where it was left, and on screen when that place is gone', async () => {
    const first = await launch();
    await (await first.firstWindow()).waitForLoadState('domcontentloaded');
    await first.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.setBounds({ x: 40, y: 30, width: 1000, height: 680 }));
    await first.close();
    running.splice(running.indexOf(first), 1);
    const saved = JSON.parse(await readFile(join(dataDir, 'window-state.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ width: 1000, height: 680, maximized: false });

    const second = await launch();
    await (await second.firstWindow()).waitForLoadState('domcontentloaded');
    expect(await mainBounds(second)).toMatchObject({ width: 1000, height: 680 });
    await second.close();
    running.splice(running.indexOf(second), 1);

    // As if the monitor it was on had been unplugged.
    await writeFile(join(dataDir, 'window-state.json'), JSON.stringify({ x: 20_000, y: 20_000, width: 1000, height: 680, maximized: false, fullScreen: false }));
    const third = await launch();
    await (await third.firstWindow()).waitForLoadState('domcontentloaded');
    const bounds = await mainBounds(third);
    const area = await third.evaluate(({ screen }) => screen.getPrimaryDisplay().workArea);
    expect(bounds.x).toBeGreaterThanOrEqual(area.x);
    expect(bounds.y).toBeGreaterThanOrEqual(area.y);
    expect(bounds.x + bounds.width).toBeLessThanOrEqual(area.x + area.width);
    expect(bounds.y + bounds.height).toBeLessThanOrEqual(area.y + area.height);
  });

  test('the application menu has the standard roles and the app’s shortcuts, and its Go items navigate', async () => {
    const app = await launch();
    await signIn(app);
    const menu = await app.evaluate(({ Menu }) => {
      const walk = (items: Electron.MenuItem[]): Array<{ id: string; role: string; accelerator: string }> =>
        items.flatMap((item) => [
          { id: item.id, role: item.role ?? '', accelerator: item.accelerator ?? '' },
          ...(item.submenu ? walk(item.submenu.items) : []),
        ]);
      return walk(Menu.getApplicationMenu()?.items ?? []);
    });
    const roles = menu.map((item) => item.role.toLowerCase());
    for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectall', 'quit', 'about', 'togglefullscreen']) expect(roles).toContain(role);
    expect(menu.find((item) => item.id === 'command-palette')?.accelerator).toBe('CmdOrCtrl+K');
    expect(menu.find((item) => item.id === 'go-accounts')?.accelerator).toBe('CmdOrCtrl+5');

    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('go-accounts')?.click());
    const page = await app.firstWindow();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Linked accounts' })).toHaveAttribute('aria-current', 'page');
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('preferences')?.click());
    await expect(page.getByTestId('preferences-dialog')).toBeVisible();
  });

  test('About: the version, the Electron host, and an update status that says why it is off', async () => {
    const app = await launch();
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getVersion())).toBe(packageJson.version);
    await signIn(app);
    const page = await app.firstWindow();
    const info = await page.evaluate(async () => {
      const g = globalThis as unknown as { api: { app: { info(): Promise<{ ok: boolean; value: Record<string, unknown> }> } } };
      return (await g.api.app.info()).value;
    });
    expect(info).toMatchObject({ name: 'Capacity Desk', version: packageJson.version, host: 'electron', updates: { available: false } });
    // A copy that cannot update says so in Preferences, not in the header.
    await expect(page.getByTestId('update-status')).toHaveCount(0);
    await page.getByTestId('account-menu-button').click();
    await page.getByTestId('open-preferences').click();
    await expect(page.getByTestId('pref-auto-update')).toBeDisabled();
    await expect(page.locator('#pref-auto-update-hint')).not.toBeEmpty();
    await expect(page.getByTestId('about-version')).toContainText(`Capacity Desk ${packageJson.version}`);
  });

  test('notifications are opt-in and the choice is kept in the data folder', async () => {
    const app = await launch();
    await signIn(app);
    const page = await app.firstWindow();
    await page.getByTestId('account-menu-button').click();
    await page.getByTestId('open-preferences').click();
    const notify = page.getByTestId('pref-notify');
    await expect(notify).not.toBeChecked();
    if (await notify.isDisabled()) test.skip(true, 'This system has no notification support.');
    await notify.check();
    await expect.poll(async () => JSON.parse(await readFile(join(dataDir, 'preferences.json'), 'utf8')) as unknown).toMatchObject({ notifyPolicyDates: true });
  });

  test('every OS has a Help menu whose "Open Logs Folder" opens the log folder, kept with a chosen data folder', async () => {
    const app = await launch();
    const logsDir = await app.evaluate(({ app: electronApp }) => electronApp.getPath('logs'));
    expect(logsDir).toBe(join(dataDir, 'logs'));
    const help = await app.evaluate(({ Menu }) => {
      const menu = Menu.getApplicationMenu()?.items.find((item) => item.role?.toLowerCase() === 'help');
      return menu?.submenu?.items.map((item) => item.id) ?? [];
    });
    expect(help).toContain('open-logs');
    // Stand in for the file manager: record what would be opened.
    await app.evaluate(({ shell }) => {
      const opened: string[] = [];
      (globalThis as { openedPaths?: string[] }).openedPaths = opened;
      shell.openPath = async (path: string) => {
        opened.push(path);
        return '';
      };
    });
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('open-logs')?.click());
    expect(await app.evaluate(() => (globalThis as { openedPaths?: string[] }).openedPaths)).toEqual([logsDir]);
  });

  test('the right-click menu is built from the context-menu event: edit flags, suggestions, Add to Dictionary', async () => {
    const app = await launch();
    await app.firstWindow();
    const shown = await app.evaluate(({ BrowserWindow, Menu }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents;
      const popped: Electron.Menu[] = [];
      const replaced: string[] = [];
      // Record the menu instead of showing it, and the replacement instead of editing a field.
      Menu.prototype.popup = function (this: Electron.Menu) {
        popped.push(this);
      };
      contents.replaceMisspelling = (word: string) => void replaced.push(word);
      const flags = { canUndo: false, canRedo: false, canCut: false, canCopy: true, canPaste: true, canSelectAll: true, canDelete: false, canEditRichly: false };
      const emit = (params: Record<string, unknown>) =>
        contents.emit('context-menu', { preventDefault() {} }, { isEditable: true, selectionText: '', misspelledWord: '', dictionarySuggestions: [], editFlags: flags, ...params });
      emit({ misspelledWord: 'capasity', dictionarySuggestions: ['capacity'] });
      emit({ isEditable: false, selectionText: '' });
      const menus = popped.map((menu) => menu.items.map((item) => ({ id: item.id, label: item.label, role: (item.role ?? '').toLowerCase(), enabled: item.enabled })));
      popped[0]?.items[0]?.click();
      return { menus, replaced, spellcheck: contents.session.isSpellCheckerEnabled() };
    });
    expect(shown.menus).toHaveLength(1);
    const items = shown.menus[0]!;
    expect(items[0]).toMatchObject({ id: 'context-suggestion-0', label: 'capacity' });
    expect(items.find((item) => item.id === 'context-add-to-dictionary')).toBeDefined();
    expect(items.filter((item) => item.role).map((item) => [item.role, item.enabled])).toEqual([
      ['undo', false],
      ['redo', false],
      ['cut', false],
      ['copy', true],
      ['paste', true],
      ['selectall', true],
    ]);
    expect(shown.replaced).toEqual(['capacity']);
    // Linux: spellcheck is off rather than downloading dictionaries (electron/services/desktop/context-menu.ts).
    expect(shown.spellcheck).toBe(process.platform !== 'linux');
  });

  test('the OS proxy settings decide the route (network.status): the built-in sandbox is reached directly', async () => {
    const app = await launch();
    const page = await app.firstWindow();
    const status = await page.evaluate(async () => {
      const g = globalThis as unknown as { api: { network: { status(): Promise<{ ok: boolean; value: { proxies: unknown[] } }> } } };
      return (await g.api.network.status()).value;
    });
    // With no proxy variable set, Electron's resolver is in charge ('system'); loopback never goes through a proxy.
    const proxied = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => process.env[name]);
    expect(status.proxies[0]).toMatchObject({ source: proxied ? 'none' : 'system', proxy: null, usable: true });
  });
});
