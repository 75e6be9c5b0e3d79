import { writeLaunchFile } from '../../electron/browser-host/launch-file.js';
import { expect, test } from './fixtures.js';

/**
 * How `npm start` opens the app where there is no Electron: Chromium is given
 * the address of a file only this user can read, which forwards it to a
 * one-time launch address. Real Chromium must follow it, and only once.
 */
test('the launch file opens the app in Chromium, and its link works only once', async ({ app, page, context }) => {
  const launchUrl = app.host.newLaunchUrl();
  const file = await writeLaunchFile(app.dataDir, launchUrl);
  await page.goto(file.url);
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
  expect(page.url()).toBe(`${app.host.origin}/`);

  const again = await context.newPage();
  await again.goto(launchUrl);
  await expect(again.getByRole('heading', { name: 'This launch link cannot be used' })).toBeVisible();
  await expect(again.getByText('already been used or has expired')).toBeVisible();
  // The session opened the first time is not affected by the refused second use.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
});

/**
 * Cookies ignore ports: any other server on loopback (another user's process,
 * a dev server) would be sent a cookie set for 127.0.0.1 or localhost. The
 * host's cookie belongs to its own made-up `*.localhost` name, which real
 * Chromium resolves to loopback by itself.
 */
test('the session cookie reaches no other server on loopback, whatever its port', async ({ app, page }) => {
  const seen: { host: string; cookie: string }[] = [];
  const { createServer } = await import('node:http');
  const other = createServer((req, res) => {
    seen.push({ host: req.headers.host ?? '', cookie: req.headers.cookie ?? '' });
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>other</title><p>another local server</p>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const port = (other.address() as { port: number }).port;
  try {
    await page.goto(app.host.newLaunchUrl());
    await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).toContain('cd_host');

    for (const address of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://other-app.localhost:${port}/`]) {
      await page.goto(address);
      await expect(page.getByText('another local server')).toBeVisible();
    }
    // Each address asked (the page, and the browser's own favicon request).
    expect(new Set(seen.map((request) => request.host)).size).toBe(3);
    for (const request of seen) expect(request.cookie, request.host).not.toContain('cd_host');
    expect(new URL(page.url()).hostname).not.toMatch(/^cd-/);
    expect(new URL(app.host.origin).hostname).toMatch(/^cd-[0-9a-f]+\.localhost$/);

    // The host itself still knows the browser (the cookie was not lost, only kept to its name).
    await page.goto(app.host.origin);
    await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
  } finally {
    other.closeAllConnections();
    await new Promise((resolve) => other.close(resolve));
  }
});

/**
 * The browser host's window.api shim comes first in the page but no longer holds up the app's own code (issue 25):
 * while a shim that stopped the parser was on its way, Chromium asked for neither the module script nor its style
 * sheet (measured; its preload scanner did not look ahead, the CSP meta tag after the shim being the likely reason). The shim is held here until the module script is asked for;
 * the sign-in screen then shows, so the shim still ran before the app's code.
 */
test('the app’s code is asked for while the shim is on its way, and the shim still runs first', async ({ app, page }) => {
  let moduleAsked: () => void = () => undefined;
  const moduleRequest = new Promise<void>((resolve) => (moduleAsked = resolve));
  page.on('request', (request) => {
    if (/\/assets\/app-start-[^/]+\.js$/.test(new URL(request.url()).pathname)) moduleAsked();
  });
  let shimHeld: (askedMeanwhile: boolean) => void = () => undefined;
  const askedWhileShimHeld = new Promise<boolean>((resolve) => (shimHeld = resolve));
  await page.route('**/api-shim.js', async (route) => {
    // A guard, not a timing: held for ever, the page would never start.
    shimHeld(await Promise.race([moduleRequest.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]));
    await route.continue();
  });
  await page.goto(app.host.newLaunchUrl(), { waitUntil: 'commit' });
  expect(await askedWhileShimHeld).toBe(true);
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
});
