import type { Page } from '@playwright/test';
import { CapacityPolicy } from '../../shared/api/capacity.js';
import { formatAmount, formatMoney } from '../../shared/format/money.js';
import {
  JORDAN,
  addFault,
  clearFaults,
  expect,
  expectAccessible,
  navTo,
  openList,
  otherWindow,
  screenshot,
  expireSession,
  signInAgain,
  signInAs,
  test,
  testOnSharedApp,
  listFromOtherWindow,
} from './support/capacity.js';
import { frameStamps, stampFrames } from './support/frame-stamps.js';

const table = (page: Page) => page.getByTestId('capacity-table');
const rowAt = (page: Page, index: number) => table(page).locator(`[role="row"][data-index="${index}"]`);

async function newestFirst(app: Parameters<typeof otherWindow>[0], status?: CapacityPolicy['policyStatus']): Promise<{ data: CapacityPolicy[]; total: number }> {
  const page = await listFromOtherWindow(app, { offset: 0, limit: 100, sortOrder: 'desc', ...(status ? { status: status as 'ACTIVE' } : {}) });
  // The sandbox answers in full: every row reads strictly.
  return { data: page.rows.map((row) => CapacityPolicy.parse(row)), total: page.total };
}

/**
 * The list's opening has read out its count and offered its suggestions (both wait for the page to be idle after the
 * rows' frame, up to 1 s: keys12): a test that watches what a search changes must start after them, or it takes the
 * opening's for the search's (seen in a fresh-clone run: the suggestions "before" the search's rows).
 */
async function openingSettled(page: Page, total: number): Promise<void> {
  await expect(page.getByTestId('announcer')).toContainText(`${total.toLocaleString('en-US')} capacity`);
  await expect(page.getByTestId('capacity-filters').locator('datalist').first().locator('option').first()).toBeAttached();
}

/**
 * The list opened and settled (openingSettled), and a search that keeps one account's rows: the account of the newest
 * policy and that search's answer as another window reads it.
 */
async function settledWithAnAccountSearch(page: Page, app: Parameters<typeof otherWindow>[0]) {
  await openList(page);
  await expect(table(page)).toHaveAttribute('aria-busy', 'false');
  const opened = await newestFirst(app);
  await openingSettled(page, opened.total);
  const account = opened.data[0]?.cspAccountName as string;
  return { opened, account, searched: await listFromOtherWindow(app, { text: account, limit: 1 }) };
}

test.describe.configure({ timeout: 60_000 });

testOnSharedApp('the list shows every column of each policy, newest first, and a row opens its detail', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openList(page);
  const expected = await newestFirst(app);

  await expect(page.getByTestId('list-summary')).toContainText(`${expected.total.toLocaleString('en-US')} policies`);
  const headers = table(page).getByRole('columnheader');
  // First the selection's column: a checkbox, no text.
  await expect(headers.first().getByRole('checkbox', { name: 'Select every policy of the list' })).toBeVisible();
  await expect(headers).toHaveText(
    ['^$', 'Policy ID', 'Policy name', 'Account', 'Customer', 'Status', 'Instances', 'Zone', 'Launch', 'End', 'Renewal', 'Our price', 'Savings', 'Savings %'].map((text) => new RegExp(text)),
  );

  const first = expected.data[0] as CapacityPolicy;
  const row = rowAt(page, 0);
  await expect(row).toContainText(first.cidrId);
  await expect(row).toContainText(first.policyName);
  await expect(row.getByTestId('status-badge')).toHaveAttribute('data-status', first.policyStatus);
  await expect(row).toContainText(`${first.policyInstance.instanceType} × ${first.policyInstance.qty}`);
  await expect(row).toContainText(first.cspAccountName);
  await expect(row).toContainText(formatAmount(first.pricing.savings, 'en-US'));
  // No customer in the book yet: each policy says so.
  await expect(row).toContainText('Unassigned');
  await expect(row).toContainText(first.cspRegion.availabilityZoneId);
  await expect(row).toContainText(formatMoney(first.pricing.ourPrice, 'USD', 'en-US'));
  await expect(row).toContainText(first.capacityConfiguration.autoRenewalEnabled ? /Weekly|Every 2 weeks|Monthly/ : 'Off');
  // Only the rows in view (and a few more) are in the page.
  expect(await table(page).locator('[role="row"][data-index]').count()).toBeLessThan(40);

  await expectAccessible(page, 'capacity list');
  await screenshot(page, 'list');

  // Keyboard: the grid is one Tab stop; arrows move, Enter opens.
  // Focusing the grid makes the first row in view the active one.
  await table(page).focus();
  await expect(table(page)).toHaveAttribute('aria-activedescendant', (await rowAt(page, 0).getAttribute('id')) ?? 'row 0 has an id');
  await page.keyboard.press('ArrowDown');
  const second = expected.data[1] as CapacityPolicy;
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-cidr')).toHaveText(second.cidrId);

  await page.getByRole('button', { name: 'Capacity policies' }).first().click();
  await rowAt(page, 2).click();
  await expect(page.getByTestId('detail-cidr')).toHaveText((expected.data[2] as CapacityPolicy).cidrId);
});

test('filter, sort and position survive navigation and a restart of the window', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openList(page);

  const active = await newestFirst(app, 'ACTIVE');
  await page.getByTestId('status-filter').getByRole('radio', { name: 'Active' }).check();
  await expect(page.getByTestId('list-summary')).toContainText(`${active.total} active policies`);
  for (const index of [0, 1, 2]) {
    await expect(rowAt(page, index).getByTestId('status-badge')).toHaveAttribute('data-status', 'ACTIVE');
  }

  // The sorted column's header says so (aria-sort); activating it again reverses the order.
  const created = () => table(page).getByRole('columnheader', { name: /Created/ });
  await page.getByTestId('column-chooser').getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Created' }).check();
  await page.keyboard.press('Escape');
  await expect(created()).toHaveAttribute('aria-sort', 'descending');
  await created().getByRole('button').click();
  await expect(created()).toHaveAttribute('aria-sort', 'ascending');
  const oldestActive = await listFromOtherWindow(app, { offset: 0, limit: 100, sortOrder: 'asc', status: 'ACTIVE' });
  await expect(rowAt(page, 0)).toContainText((oldestActive.rows[0] as CapacityPolicy).cidrId);

  // Scroll down a little: the position is part of the remembered state.
  await table(page).focus();
  for (let i = 0; i < 25; i += 1) await page.keyboard.press('ArrowDown');
  // Focus starts on row 0, so 25 presses land on row 25.
  const remembered = (oldestActive.rows[25] as CapacityPolicy).cidrId;
  // The grid's cursor (aria-activedescendant) is on it.
  await expect
    .poll(async () => table(page).locator(`[id="${await table(page).getAttribute('aria-activedescendant')}"]`).textContent())
    .toContain(remembered);

  await navTo(page, 'Overview');
  await navTo(page, 'Capacity policies');
  await expect(page.getByTestId('status-filter').getByRole('radio', { name: 'Active' })).toBeChecked();
  await expect(created()).toHaveAttribute('aria-sort', 'ascending');
  await expect(table(page)).toContainText(remembered);

  // A restart: the renderer starts from nothing but localStorage.
  await page.reload();
  await navTo(page, 'Capacity policies');
  await expect(page.getByTestId('status-filter').getByRole('radio', { name: 'Active' })).toBeChecked();
  await expect(created()).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByTestId('list-summary')).toContainText(`${active.total} active policies`);
  await expect(table(page)).toContainText(remembered);

  // A restart of the browser host: a new origin, whose storage is empty; the main process kept the state.
  await page.goto('about:blank');
  await page.goto((await app.restartHost()).newLaunchUrl());
  await navTo(page, 'Capacity policies');
  await expect(page.getByTestId('status-filter').getByRole('radio', { name: 'Active' })).toBeChecked();
  await expect(created()).toHaveAttribute('aria-sort', 'ascending');
  await expect(table(page)).toContainText(remembered);

  // A filter with nothing in it has its own empty state, with a way back.
  await page.getByTestId('status-filter').getByRole('radio', { name: 'All' }).check();
  await expect(page.getByTestId('list-summary')).toContainText(`${(await newestFirst(app)).total} policies`);
});

test('a service that cannot answer shows the failure with a retry, and the rows come back', async ({ openApp, app }) => {
  const page = await openApp();
  // Before the local copy exists (its fill after sign-in meets the same failure), the list pages the service.
  await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/capacities', errorRate: 1, errorStatus: 503 });
  await signInAs(page);
  await navTo(page, 'Capacity policies');
  const error = page.getByTestId('error-message');
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('data-kind', 'server');
  await expectAccessible(page, 'capacity list error');
  await screenshot(page, 'list-error');

  await clearFaults(app);
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(error).toBeHidden();
  await expect(rowAt(page, 0)).toContainText(/sc_\d+/);
});

test('offline: a service that drops the connection is shown as unreachable, and the list comes back', async ({ openApp, app }) => {
  const page = await openApp();
  await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/capacities', dropRate: 1 });
  await signInAs(page);
  await navTo(page, 'Capacity policies');
  const error = page.getByTestId('error-message');
  await expect(error).toHaveAttribute('data-kind', 'offline', { timeout: 20_000 });
  await expect(error).toContainText('The service cannot be reached');
  await screenshot(page, 'list-offline');
  await clearFaults(app);
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(rowAt(page, 0)).toContainText(/sc_\d+/);
});

test.describe('with no refresh of the copy at sign-in', () => {
  // The sign-in's refresh, still under way when the session ends, met the expired token before the test's
  // request did, and its dialog took the click meant for the view (a browser run met it at load 40-60).
  test.use({ appOptions: { refreshReplicaAtSignIn: false } });

  test('the session ends while the list is open: after signing in again the rows load, filter kept', async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    await openList(page);
    await page.getByTestId('status-filter').getByRole('radio', { name: 'Failed' }).check();
    await expect(page.getByTestId('list-summary')).toContainText('failed');
    await expireSession(app);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await signInAgain(page);
    await expect(page.getByTestId('error-message')).toHaveCount(0);
    await expect(rowAt(page, 0).getByTestId('status-badge')).toHaveAttribute('data-status', 'FAILED');
    await expect(page.getByTestId('status-filter').getByRole('radio', { name: 'Failed' })).toBeChecked();
  });
});

test('another user signing in on the same window sees only their own policies', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openList(page);
  const alexTotal = (await newestFirst(app)).total;
  await expect(page.getByTestId('list-summary')).toContainText(`${alexTotal} policies`);
  // Signed out from elsewhere (the account menu's flow is another view's): the sign-in screen comes back.
  await otherWindow(app)['session.signOut'](undefined);
  await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
  await signInAs(page, JORDAN);
  await openList(page);
  const jordan = await newestFirst(app);
  expect(jordan.total).not.toBe(alexTotal);
  await expect(page.getByTestId('list-summary')).toContainText(`${jordan.total} policies`);
  await expect(rowAt(page, 0)).toContainText((jordan.data[0] as CapacityPolicy).cidrId);
});

testOnSharedApp('a search’s frame brings its rows; the filter bar’s suggestions and the count read out follow in a later frame', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  // A search that keeps one account's rows: the accounts offered and the count both change with its answer.
  const { account, searched: expected } = await settledWithAnAccountSearch(page, app);
  const ROWS = '.vt-body';
  const SUGGESTIONS = '[data-testid="capacity-filters"] datalist';
  const ANNOUNCER = '[data-testid="announcer"]';
  await stampFrames(page, [ROWS, SUGGESTIONS, ANNOUNCER]);
  await page.getByTestId('list-search').fill(account);
  await expect(page.getByTestId('announcer')).toContainText(`${expected.total.toLocaleString('en-US')} capacity`);
  await expect(table(page)).toHaveAttribute('aria-busy', 'false');
  const datalist = page.getByTestId('capacity-filters').locator('datalist').first();
  await expect(datalist.locator('option')).toHaveCount(1);
  await expect(datalist.locator('option')).toHaveAttribute('value', account);
  const stamps = await frameStamps(page);
  const rowsAt = stamps[ROWS]?.[0] ?? -1;
  expect(rowsAt).toBeGreaterThanOrEqual(0);
  expect(stamps[SUGGESTIONS]?.[0]).toBeGreaterThan(rowsAt);
  expect(stamps[ANNOUNCER]?.[0]).toBeGreaterThan(rowsAt);
});

/**
 * Keys12: what follows a search's rows (the count read out, the filter bar's suggestions) waits for the page to be
 * idle after the rows' frame, not the first task after it: a page kept busy by other tasks once the rows are in
 * takes neither until that work is done, so it never runs ahead of the next key's handling.
 */
testOnSharedApp('the count read out and the suggestions wait for the page to be idle after a search’s rows', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const { account, searched: expected } = await settledWithAnAccountSearch(page, app);
  // Once the table shows the answer, 400 ms of back-to-back tasks (a message chain leaves no idle time between them).
  await page.evaluate(`(() => {
    const seen = { busyEnd: null, suggested: null, announced: null, sawBusy: false };
    window.__idleCheck = seen;
    const grid = document.querySelector('[data-testid="capacity-table"]');
    const keepBusy = () => {
      const until = performance.now() + 400;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const spin = performance.now() + 4;
        while (performance.now() < spin) {}
        if (performance.now() < until) channel.port2.postMessage(null);
        else seen.busyEnd = performance.now();
      };
      channel.port2.postMessage(null);
    };
    new MutationObserver(() => {
      if (grid.getAttribute('aria-busy') === 'true') seen.sawBusy = true;
      else if (seen.sawBusy && seen.busyEnd === null) keepBusy();
    }).observe(grid, { attributes: true, attributeFilter: ['aria-busy'] });
    new MutationObserver(() => { seen.suggested ??= performance.now(); })
      .observe(document.querySelector('[data-testid="capacity-filters"]'), { subtree: true, childList: true });
    new MutationObserver(() => { if (document.querySelector('[data-testid="announcer"]').textContent) seen.announced ??= performance.now(); })
      .observe(document.querySelector('[data-testid="announcer"]'), { subtree: true, childList: true, characterData: true });
  })()`);
  await page.getByTestId('list-search').fill(account);
  await expect(page.getByTestId('announcer')).toContainText(`${expected.total.toLocaleString('en-US')} capacity`);
  await expect(page.getByTestId('capacity-filters').locator('datalist').first().locator('option')).toHaveCount(1);
  const seen = (await page.evaluate('window.__idleCheck')) as { busyEnd: number | null; suggested: number | null; announced: number | null };
  expect(seen.busyEnd, 'the busy stretch ran to its end').not.toBeNull();
  expect(seen.suggested).toBeGreaterThanOrEqual(seen.busyEnd as number);
  expect(seen.announced).toBeGreaterThanOrEqual(seen.busyEnd as number);
});

/**
 * Keys13: the count read out and the suggestions of an answer are not taken while the next key's rows are asked: the
 * page is idle then (it waits for them), and with keys typed back to back the read-out and its frame landed in that
 * key's wait. Once the last answer is in, its own count is read out and its suggestions offered.
 */
testOnSharedApp('the count read out and the suggestions wait while the next key’s rows are asked', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const { opened, account, searched: first } = await settledWithAnAccountSearch(page, app);
  expect(first.total).not.toBe(opened.total);
  const NEXT = 'no-policy-has-this-text';
  // The first search's answer goes through; the next key's is held until released.
  let calls = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/ipc/capacity.list', async (route) => {
    calls += 1;
    if (calls > 1) await released;
    await route.continue().catch(() => undefined);
  });
  // The next key is typed in the very task the first answer is shown (its rows asked before the page is idle), as a
  // person's next key lands during the frame; from then on every read-out and suggestion change is noted.
  await page.evaluate(`(() => {
    const seen = { nextTyped: false, announced: [], suggestionChanges: 0 };
    window.__nextKeyCheck = seen;
    const grid = document.querySelector('[data-testid="capacity-table"]');
    const search = document.querySelector('[data-testid="list-search"]');
    const announcer = document.querySelector('[data-testid="announcer"]');
    let sawBusy = false;
    const watcher = new MutationObserver(() => {
      if (grid.getAttribute('aria-busy') === 'true') return void (sawBusy = true);
      if (!sawBusy || seen.nextTyped) return;
      seen.nextTyped = true;
      watcher.disconnect();
      new MutationObserver(() => { seen.suggestionChanges += 1; })
        .observe(document.querySelector('[data-testid="capacity-filters"]'), { subtree: true, childList: true, attributes: true });
      new MutationObserver(() => { if (announcer.textContent) seen.announced.push(announcer.textContent); })
        .observe(announcer, { subtree: true, childList: true, characterData: true });
      search.value = ${JSON.stringify(NEXT)};
      search.dispatchEvent(new Event('input', { bubbles: true }));
    });
    watcher.observe(grid, { attributes: true, attributeFilter: ['aria-busy'] });
  })()`);
  await page.getByTestId('list-search').fill(account);
  await expect.poll(() => calls).toBe(2);
  await expect(table(page)).toHaveAttribute('aria-busy', 'true');
  // The page idle twice over, past the read-outs' own wait (at most 1 s) and behind any idle callback already asked.
  await page.evaluate(`new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => requestIdleCallback(() => requestIdleCallback(resolve))), 1200))`);
  const held = (await page.evaluate('window.__nextKeyCheck')) as { nextTyped: boolean; announced: string[]; suggestionChanges: number };
  expect(held.nextTyped).toBe(true);
  expect(held.announced).toEqual([]);
  expect(held.suggestionChanges).toBe(0);
  release();
  await expect(table(page)).toHaveAttribute('aria-busy', 'false');
  // The last answer's count is read out (no policy has that text), and its suggestions (none) replace the opening's.
  await expect(page.getByTestId('announcer')).toHaveText('0 capacity policies');
  await expect(page.getByTestId('capacity-filters').locator('datalist').first().locator('option')).toHaveCount(0);
  const after = (await page.evaluate('window.__nextKeyCheck')) as { announced: string[] };
  expect(after.announced.some((text) => text.startsWith(`${first.total.toLocaleString('en-US')} `))).toBe(false);
  await page.unroute('**/ipc/capacity.list');
});

/**
 * Keys12: a row's cells are patched in place by the next answer, whatever their text: a customer's name that gives
 * way to "Unassigned" (or a value to its "—") keeps its element, so a keystroke does not tear cells down and build
 * them again.
 */
test('a search’s answer patches a row’s cells in place, a customer’s name and “Unassigned” alike', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  const rows = (await listFromOtherWindow(app, { offset: 0, limit: 20, sortBy: 'createdDate', sortOrder: 'desc' })).rows;
  const owned = rows[0] as CapacityPolicy;
  const stray = rows.find((row) => row.cspAccountName !== owned.cspAccountName) as CapacityPolicy;
  await otherWindow(app)['customers.save']({ name: 'Northwind', externalIds: ['ID-NW'], accounts: [owned.cspAccountName], contact: '', notes: '' });
  await openList(page);
  const search = page.getByTestId('list-search');
  // The customer's cell: the checkbox's, the id's, the name's and the account's come first.
  const customerCell = rowAt(page, 0).getByRole('gridcell').nth(4);
  await search.fill(owned.cidrId);
  await expect(rowAt(page, 0)).toContainText(owned.cidrId);
  await expect(customerCell).toHaveText('Northwind');
  // The cell's text is its gridcell's own (keys16): the gridcell and its text node are marked, and must be the ones shown after.
  const mark = () => customerCell.evaluate((cell) => {
    const text = [...cell.childNodes].find((node) => node.nodeType === 3 /* text */ && node.nodeValue?.trim());
    if (text) (text as unknown as { kept?: boolean }).kept = true;
    cell.setAttribute('data-kept', 'yes');
  });
  const kept = () => customerCell.evaluate((cell) => {
    const text = [...cell.childNodes].find((node) => node.nodeType === 3 /* text */ && node.nodeValue?.trim());
    return { cell: cell.getAttribute('data-kept'), text: (text as unknown as { kept?: boolean } | undefined)?.kept === true, value: text?.nodeValue?.trim(), className: cell.className };
  });
  await mark();
  await search.fill(stray.cidrId);
  await expect(rowAt(page, 0)).toContainText(stray.cidrId);
  await expect(customerCell).toHaveText('Unassigned');
  expect(await kept()).toMatchObject({ cell: 'yes', text: true, value: 'Unassigned', className: expect.stringContaining('muted') });
  await search.fill(owned.cidrId);
  await expect(customerCell).toHaveText('Northwind');
  expect(await kept()).toMatchObject({ cell: 'yes', text: true, value: 'Northwind', className: expect.not.stringContaining('muted') });
});

/**
 * Keys16: a text cell is its gridcell alone, its text with no element of its own (a key that replaces every row
 * built, styled and laid out one element more a cell); its look and whole text (the title) are the gridcell's. The
 * status keeps its badge, and the cells read as before.
 */
test('a row’s text cells are their gridcells alone, with their look and title; the status keeps its badge', async ({ openApp, app }) => {
  const page = await openApp();
  await signInAs(page);
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  const newest = (await listFromOtherWindow(app, { offset: 0, limit: 1, sortBy: 'createdDate', sortOrder: 'desc' })).rows[0] as CapacityPolicy;
  await openList(page);
  await page.getByTestId('list-search').fill(newest.cidrId);
  const row = rowAt(page, 0);
  await expect(row).toContainText(newest.cidrId);
  const cells = await row.getByRole('gridcell').evaluateAll((all) =>
    all.map((cell) => ({ elements: cell.children.length, text: cell.textContent?.trim() ?? '', className: cell.className, title: cell.getAttribute('title'), badge: cell.querySelector('[data-testid="status-badge"]') !== null })),
  );
  // The checkbox's cell, then the columns: the status has its badge, every other column is text alone.
  const columns = cells.slice(1);
  const status = columns.filter((cell) => cell.badge);
  expect(status).toHaveLength(1);
  const plain = columns.filter((cell) => !cell.badge);
  expect(plain.length).toBeGreaterThan(8);
  for (const cell of plain) expect(cell.elements, `${cell.text}: no element inside`).toBe(0);
  // The id: monospace, its whole text as the title; the name: its own look and title.
  const id = plain.find((cell) => cell.text === newest.cidrId);
  expect(id).toMatchObject({ title: newest.cidrId, className: expect.stringContaining('mono') });
  if (newest.policyName) expect(plain.find((cell) => cell.text === newest.policyName)).toMatchObject({ title: newest.policyName, className: expect.stringContaining('capacity-name') });
  await expect(row.getByRole('gridcell').filter({ hasText: newest.cidrId })).toHaveAccessibleName(newest.cidrId);
});

/**
 * Keys16: the frame a person waits for after a key holds the rows in view only: the rows drawn beyond the viewport
 * (for scrolling) are not patched while a new search is on its way; they are drawn again once its answer's frame is
 * painted.
 */
testOnSharedApp('a search’s answer draws the rows in view in its frame, and the rows beyond the viewport after it', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await settledWithAnAccountSearch(page, app);
  const drawn = () => table(page).locator('[role="row"][data-index]');
  // The rows in view at the list's top, and those drawn beyond them (five), before any key.
  const before = await drawn().count();
  const inView = await table(page).evaluate((grid) => {
    const bottom = grid.getBoundingClientRect().bottom;
    return [...grid.querySelectorAll('[role="row"][data-index]')].filter((row) => row.getBoundingClientRect().top < bottom).length;
  });
  expect(before).toBeGreaterThan(inView);
  // How many rows the page holds in the very task the answer's rows are shown (aria-busy cleared): what its frame paints.
  await page.evaluate(`(() => {
    const grid = document.querySelector('[data-testid="capacity-table"]');
    window.__rowsAtAnswer = null;
    const observer = new MutationObserver(() => {
      if (grid.getAttribute('aria-busy') !== 'false') return;
      observer.disconnect();
      window.__rowsAtAnswer = grid.querySelectorAll('[role="row"][data-index]').length;
    });
    observer.observe(grid, { attributes: true, attributeFilter: ['aria-busy'] });
  })()`);
  // A search every policy matches (each id starts so): the list is as long, so as many rows are drawn after it.
  await page.getByTestId('list-search').fill('sc_');
  await expect(table(page)).toHaveAttribute('aria-busy', 'false');
  expect(await page.evaluate('window.__rowsAtAnswer')).toBe(inView);
  // Then, after that frame, the rows beyond the viewport again.
  await expect(drawn()).toHaveCount(before);
});

/**
 * Keys17: the rows beyond the viewport come back when the page is idle after the answer's frame, not in the first
 * task after it, where their drawing ran ahead of a key typed just then (and of the bench's own after-paint mark).
 */
testOnSharedApp('the rows beyond the viewport come back when the page is idle after a search’s frame', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await settledWithAnAccountSearch(page, app);
  const drawn = () => table(page).locator('[role="row"][data-index]');
  const before = await drawn().count();
  // Once the answer's rows are shown (aria-busy cleared), 400 ms of back-to-back tasks (a message chain leaves no idle
  // time between them, and frames are still drawn among them); the time the rows beyond the viewport are drawn again.
  await page.evaluate(`(() => {
    const seen = { busyEnd: null, back: null, sawBusy: false, fewer: false };
    window.__overscanCheck = seen;
    const grid = document.querySelector('[data-testid="capacity-table"]');
    const body = grid.querySelector('.vt-body');
    const rows = () => grid.querySelectorAll('[role="row"][data-index]').length;
    const keepBusy = () => {
      const until = performance.now() + 400;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const spin = performance.now() + 4;
        while (performance.now() < spin) {}
        if (performance.now() < until) channel.port2.postMessage(null);
        else seen.busyEnd = performance.now();
      };
      channel.port2.postMessage(null);
    };
    new MutationObserver(() => {
      if (grid.getAttribute('aria-busy') === 'true') seen.sawBusy = true;
      else if (seen.sawBusy && seen.busyEnd === null) keepBusy();
    }).observe(grid, { attributes: true, attributeFilter: ['aria-busy'] });
    new MutationObserver(() => {
      if (rows() < ${before}) seen.fewer = true;
      else if (seen.fewer) seen.back ??= performance.now();
    }).observe(body, { childList: true });
  })()`);
  await page.getByTestId('list-search').fill('sc_');
  await expect(table(page)).toHaveAttribute('aria-busy', 'false');
  await expect(drawn()).toHaveCount(before);
  const seen = (await page.evaluate('window.__overscanCheck')) as { busyEnd: number | null; back: number | null; fewer: boolean };
  expect(seen.fewer, 'the rows beyond the viewport were taken away while the answer was on its way').toBe(true);
  expect(seen.busyEnd, 'the busy stretch ran to its end').not.toBeNull();
  expect(seen.back).toBeGreaterThanOrEqual(seen.busyEnd as number);
});

test('a search’s answers write their counts as the locale does, with no formatter built per count', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  await openList(page);
  const all = await listFromOtherWindow(app, { offset: 0, limit: 1, sortBy: 'createdDate', sortOrder: 'desc' });
  await openingSettled(page, all.total);
  // Every Number#toLocaleString call of the page from here on is counted: each builds a formatter of its own
  // (keys14: five or six a keystroke's answer, in the work before its frame).
  await page.evaluate(() => {
    const own = Number.prototype.toLocaleString;
    const counted = globalThis as unknown as { toLocaleCalls: number };
    counted.toLocaleCalls = 0;
    Number.prototype.toLocaleString = function (this: number, ...args: Parameters<number['toLocaleString']>) {
      counted.toLocaleCalls += 1;
      return own.apply(this, args);
    };
  });
  const search = page.getByTestId('list-search');
  for (const text of ['s', 'sc', 'sc_1', '']) {
    const expected = await listFromOtherWindow(app, { text, offset: 0, limit: 1, sortBy: 'createdDate', sortOrder: 'desc' });
    await search.fill(text);
    // The counts as the locale writes them (the test browser's: en-US), the summary's and the pager's.
    await expect(page.getByTestId('list-summary').locator('strong')).toHaveText(expected.total.toLocaleString('en-US'));
    await expect(page.getByTestId('pager-status')).toHaveText(`Page 1 of ${Math.max(1, Math.ceil(expected.total / 100)).toLocaleString('en-US')}`);
    await expect(page.getByTestId('pager')).toContainText(`of ${expected.total.toLocaleString('en-US')}`);
  }
  expect(await page.evaluate(() => (globalThis as unknown as { toLocaleCalls: number }).toLocaleCalls)).toBe(0);
});
