import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { expect, openAccountMenu, signIn, test } from './fixtures.js';

/**
 * The access token and the password never reach the renderer, the logs or the
 * cache: sign in, work through every view, then look for both everywhere the
 * app could have put them.
 */
const alex = SANDBOX_USERS[0]!;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

test('token and password appear in no DOM, storage, IPC payload, log or cache file', async ({ openApp, app, page }) => {
  test.setTimeout(90_000);
  const ipcTraffic: string[] = [];
  await page.route('**/ipc/**', async (route) => {
    const response = await route.fetch();
    // The password is typed in the renderer and goes to the main process once, in the sign-in
    // request itself (the only way in); everything else in either direction must be free of it.
    const request = route.request();
    if (!request.url().endsWith('/ipc/session.signIn')) ipcTraffic.push(request.postData() ?? '');
    ipcTraffic.push(await response.text());
    await route.fulfill({ response });
  });
  const pushed: string[] = [];
  app.services.events.subscribe((event, payload) => pushed.push(JSON.stringify({ event, payload })));

  await openApp();
  await signIn(page, alex.username, alex.password);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // The token, as the main process holds it (read straight from its store).
  const status = app.services.session.status();
  const stored = await app.services.secrets.get(`Capacity Desk (${status.profileId})`, alex.username);
  const token = (JSON.parse(stored ?? '{}') as { accessToken?: string }).accessToken ?? '';
  expect(token.split('.')).toHaveLength(3);

  // Every view, and the actions that send the most data back and forth.
  await nav.getByRole('button', { name: 'Capacity policies' }).click();
  const firstRow = page.getByTestId('capacity-table').getByRole('row').nth(1);
  await expect(firstRow).toBeVisible();
  await firstRow.click();
  await expect(page.locator('#content h1')).not.toHaveText('Capacity policies');
  await nav.getByRole('button', { name: 'Search & purchase' }).click();
  await expect(page.getByTestId('search-view')).toBeVisible();
  await nav.getByRole('button', { name: 'Disaster recovery' }).click();
  await page.getByLabel('External customer id').fill(alex.customers[0]!.cidExt);
  await page.getByRole('button', { name: 'Show policies' }).click();
  await expect(page.getByTestId('cyber-row').first()).toBeVisible();
  await page.getByTestId('cyber-row').first().click();
  await expect(page.locator('#content h1')).toBeVisible();
  await nav.getByRole('button', { name: 'Linked accounts' }).click();
  await expect(page.getByText(alex.linkedAccounts[0]!.accountId).first()).toBeVisible();
  // A refresh of the local copy by hand, on top of the one after sign-in: the copy is then on disk.
  await openAccountMenu(page);
  await page.getByTestId('open-sync').click();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  await app.services.logger.flush();

  const secrets = { token, password: alex.password };
  const places: Record<string, string> = {
    dom: await page.content(),
    storage: await page.evaluate(() => {
      const g = globalThis as unknown as { localStorage: Record<string, string>; sessionStorage: Record<string, string> };
      return JSON.stringify({ local: { ...g.localStorage }, session: { ...g.sessionStorage } });
    }),
    cookies: JSON.stringify(await page.context().cookies()),
    ipc: ipcTraffic.join('\n'),
    events: pushed.join('\n'),
  };
  expect(ipcTraffic.length).toBeGreaterThan(20);
  for (const file of await filesUnder(app.dataDir)) places[file] = (await readFile(file)).toString('latin1');
  // Sign-in is always audited, so the audit trail is there to search (the main log may hold nothing on a clean run).
  expect(Object.keys(places).some((p) => p.includes(`${join('logs', 'audit.log')}`))).toBe(true);
  expect(Object.keys(places).some((p) => p.includes(join('cache', '')))).toBe(true);

  for (const [where, text] of Object.entries(places)) {
    for (const [what, secret] of Object.entries(secrets)) {
      expect(text.includes(secret), `${what} found in ${where}`).toBe(false);
    }
  }
});
