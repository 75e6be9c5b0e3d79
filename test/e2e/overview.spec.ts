import type { Page } from '@playwright/test';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { CAPACITY_STATUSES } from '../../shared/api/contract-choices.js';
import { JORDAN, SandboxClient, addFault, clearFaults, expectAccessible, screenshot, signInTo } from './cyber-support.js';
import { expect, test, testOnSharedApp } from './fixtures.js';
import { traceEvents, type TraceEvent } from '../support/chromium-trace.js';

const DAY = 86_400_000;

/**
 * The overview's figures worked out here, from the sandbox's own list over
 * HTTP, following the definitions the overview states on screen.
 */
function expectedFigures(policies: readonly CapacityPolicy[], asOfMs: number) {
  const within = (iso: string) => Date.parse(iso) >= asOfMs && Date.parse(iso) < asOfMs + 30 * DAY;
  const upcoming = policies.filter((p) => p.policyStatus === 'ACTIVE' || p.policyStatus === 'READY_FOR_PURCHASE');
  const active = policies.filter((p) => p.policyStatus === 'ACTIVE');
  let monthly = 0;
  let later = 0;
  for (const p of active) {
    const days = (Date.parse(p.capacityConfiguration.endDateTime) - Date.parse(p.capacityConfiguration.launchDateTime)) / DAY;
    // Only what runs at the overview's "now" is summed (savings15); an active policy launching later is said apart.
    if (Date.parse(p.capacityConfiguration.launchDateTime) > asOfMs) later += 1;
    else monthly += p.pricing.savings * (days > 0 ? Math.min(1, 30 / days) : 1);
  }
  return {
    byStatus: Object.fromEntries(CAPACITY_STATUSES.map((s) => [s, policies.filter((p) => p.policyStatus === s).length])),
    launching: upcoming.filter((p) => within(p.capacityConfiguration.launchDateTime)).length,
    ending: upcoming.filter((p) => within(p.capacityConfiguration.endDateTime)).length,
    renewal: active.filter((p) => !p.capacityConfiguration.autoRenewalEnabled && within(p.capacityConfiguration.endDateTime)).length,
    monthly: Math.round(monthly * 100) / 100,
    later,
  };
}

/** An amount as the page's locale writes it, with the Sandbox environment's currency (USD). */
async function localAmount(page: Page, value: number): Promise<string> {
  return page.evaluate(
    (n) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', currencyDisplay: 'code', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n),
    value,
  );
}

/**
 * The figures on screen against the sandbox's own list. Each overview answer's source is kept: the overview is
 * counted two ways (from the service's pages before a copy exists, from the copy after), and a sign-in that waits
 * for the copy (openSignedIn) never shows the first (review16: suite16's openSignedIn had moved this test from the
 * live count to the copy's without a word).
 */
async function figuresAgree(page: Page, app: Parameters<typeof SandboxClient.signIn>[0], openSignedIn: (user: typeof JORDAN) => Promise<Page>): Promise<string[]> {
  const summaryAnswers: number[] = [];
  const sources: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('/ipc/overview.summary')) return;
    const body = await response.body();
    summaryAnswers.push(body.length);
    sources.push(/"source":"(\w+)"/.exec(body.toString())?.[1] ?? 'none');
  });
  await openSignedIn(JORDAN);
  const overview = page.getByTestId('overview');
  await expect(overview).toHaveAttribute('data-as-of', /Z$/);
  const asOf = Date.parse((await overview.getAttribute('data-as-of')) as string);

  const sandbox = await SandboxClient.signIn(app, JORDAN);
  const policies = await sandbox.allCapacities();
  const expected = expectedFigures(policies, asOf);
  // The seeded data gives every figure something to count.
  expect(expected.launching).toBeGreaterThan(0);
  expect(expected.renewal).toBeGreaterThan(0);

  const counts = page.getByTestId('status-counts');
  await expect(counts.locator('[data-status="ALL"] [data-testid="count"]')).toHaveText(policies.length.toLocaleString('en-US'));
  for (const status of CAPACITY_STATUSES) {
    await expect(counts.locator(`[data-status="${status}"] [data-testid="count"]`), status).toHaveText(String(expected.byStatus[status]));
  }
  await expect(page.getByTestId('tile-launching').getByTestId('figure-value')).toHaveText(String(expected.launching));
  await expect(page.getByTestId('tile-ending').getByTestId('figure-value')).toHaveText(String(expected.ending));
  await expect(page.getByTestId('tile-renewal').getByTestId('figure-value')).toHaveText(String(expected.renewal));
  await expect(page.getByTestId('tile-savings').getByTestId('figure-value')).toHaveText(await localAmount(page, expected.monthly));
  // "Monthly" is defined where the figure is.
  await expect(page.getByTestId('tile-savings')).toContainText('spread evenly over its window (launch to end), counted for 30 days');
  // The seeded list has active policies launching later: said apart, not summed (as the customer page does).
  expect(expected.later).toBeGreaterThan(0);
  await expect(page.getByTestId('tile-savings')).toContainText(`Not counted: ${expected.later.toLocaleString('en-US')} active ${expected.later === 1 ? 'policy' : 'policies'} launching later`);

  // The charts are there, with their words for those who do not see them.
  await expect(page.getByTestId('chart-savings').getByRole('img', { name: /Monthly savings by instance family/ })).toBeVisible();
  await expect(page.getByTestId('chart-timeline').getByRole('img', { name: /Launches and ends, next 30 days/ })).toBeVisible();
  await expect(page.getByTestId('chart-timeline')).toContainText(
    `${expected.launching} ${expected.launching === 1 ? 'launch' : 'launches'} and ${expected.ending} ${expected.ending === 1 ? 'end' : 'ends'}`,
  );
  await expect(page.getByTestId('renewal-list').locator('li')).toHaveCount(Math.min(8, expected.renewal));

  // The whole list stayed in the main process: a few kilobytes crossed, not the policies.
  expect(summaryAnswers.length).toBeGreaterThan(0);
  expect(Math.max(...summaryAnswers)).toBeLessThan(12_000);
  expect(JSON.stringify(policies).length).toBeGreaterThan(10 * Math.max(...summaryAnswers));
  return sources;
}

test('the overview’s figures agree with the sandbox’s data, and only figures cross to the window', async ({ openSignedIn, app, page }) => {
  expect(await figuresAgree(page, app, openSignedIn)).toContain('replica');
});

test.describe('before a copy exists', () => {
  // No copy is made at the sign-in: every answer is the live count, from the service's pages (OverviewService).
  test.use({ appOptions: { refreshReplicaAtSignIn: false } });

  test('the overview counted from the service’s pages agrees with the sandbox’s data, and only figures cross to the window', async ({ openSignedIn, app, page }) => {
    const sources = await figuresAgree(page, app, openSignedIn);
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources)).toEqual(new Set(['service']));
  });
});

testOnSharedApp('a status tile opens the capacity list filtered by that status', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await page.getByTestId('status-counts').locator('[data-status="EXPIRED"]').click();
  await expect(page.getByRole('heading', { name: 'Capacity policies', level: 1 })).toBeVisible();
  await expect(page.getByTestId('status-filter').getByRole('radio', { name: 'Expired' })).toBeChecked();
});

testOnSharedApp('a date-window tile opens only what it counts: no link to every policy of a status (issue 17 item 10)', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  // The service lists capacity policies by status only, so "launching in 30 days: 4 active" cannot open as a list:
  // the counts are words, not links to all active policies.
  // Their one link is the renewal worklist (issue 28), which lists from the local copy exactly what launches or ends in the window.
  for (const tile of ['tile-launching', 'tile-ending']) {
    await expect(page.getByTestId(tile).getByTestId('figure-value')).toHaveText(/\d/);
    await expect(page.getByTestId(tile).getByRole('button'), tile).toHaveText(['Open in the renewal worklist']);
  }
  await expect(page.getByTestId('tile-launching')).toContainText(/\d+ (active|ready for purchase)/);
  // "Ending without auto-renewal" leads to the list of exactly those policies, on this page.
  const renewal = page.getByTestId('tile-renewal');
  await expect(renewal.getByRole('button', { name: /active policies/ })).toHaveCount(0);
  await renewal.getByRole('button', { name: 'Show these policies' }).click();
  await expect(page.getByRole('heading', { name: 'Ending soon without auto-renewal' })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
});

test('a failing service is explained, and Try again recovers', async ({ openApp, app }) => {
  const page = await openApp();
  await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/capacities', errorRate: 1, errorStatus: 500 });
  await signInTo(page);
  const error = page.getByTestId('error-message');
  await expect(error).toHaveAttribute('data-kind', 'server');
  await expect(error).toContainText('An unexpected error occurred');
  await expectAccessible(page, 'overview error');
  await clearFaults(app);
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('tile-savings').getByTestId('figure-value')).toBeVisible();
  await expect(error).toHaveCount(0);
});

testOnSharedApp('the overview is accessible in light and dark, and looks right', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await expect(page.getByTestId('tile-savings').getByTestId('figure-value')).toBeVisible();
  await expectAccessible(page, 'overview');
  await screenshot(page, 'overview');
  await screenshot(page, 'overview', 'dark');
  // The charts' table form is reachable and accessible too.
  await page.getByTestId('chart-savings').getByText('Show as a table').click();
  await page.getByTestId('chart-timeline').getByText('Show as a table').click();
  await expectAccessible(page, 'overview with chart tables open');
});

test('the figures are painted in a frame of their own, the charts and lists in the next (issue 25)', async ({ openApp, page }) => {
  await openApp();
  // Noted in the page as the tiles first appear: were the panels below them rendered in the same pass?
  await page.evaluate(`(() => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="tile-launching"]')) return;
      observer.disconnect();
      window.__panelsWithFigures = document.querySelector('[data-testid="chart-timeline"]') !== null;
    });
    observer.observe(document.body, { subtree: true, childList: true });
  })()`);
  await signInTo(page, JORDAN);
  await expect(page.getByTestId('tile-launching')).toBeVisible();
  await expect(page.getByTestId('chart-timeline')).toBeVisible();
  await expect(page.getByTestId('upcoming-list')).toBeVisible();
  expect(await page.evaluate('window.__panelsWithFigures')).toBe(false);
});

/** Script the page runs, as Chromium's timeline names it: a layout inside one was forced by that script. */
const RUNS_SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'RunMicrotasks', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'FireIdleCallback']);

// Twice: with the overview's answer as it comes, and held back so the tiles come a pass after the view's heading
// (as under load, where CI caught the heading's focus laying the page out before the tiles: focus.ts).
for (const late of [false, true]) {
test(`the app mounts without making the browser lay out the half-built page${late ? ', its answer late' : ''} (issue 25, overview16)`, async ({ openApp, page, browser }) => {
  if (late) {
    await page.route('**/ipc/overview.summary', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
  }
  await openApp();
  const tilesShown = page.evaluate(`new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="tile-launching"]')) return;
      observer.disconnect();
      performance.mark('overview16-tiles');
      resolve(true);
    });
    observer.observe(document.body, { subtree: true, childList: true });
  })`);
  // With the layouts' script stacks: a failure names the code that forced the layout (CI's, at load 10-16, and
  // flake17's in npm test at load 32 said only "Layout at +7 ms").
  await browser.startTracing(page, { categories: ['devtools.timeline', 'blink.user_timing', 'disabled-by-default-devtools.timeline.stack'] });
  await page.getByLabel('Username or e-mail').fill(JORDAN.username);
  await page.getByLabel('Password').fill(JORDAN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Waited for in the page, not by polling it: a poll's own look at the page would lay it out.
  await tilesShown;
  const events = traceEvents((await browser.stopTracing()).toString('utf8'));
  const tiles = events.find((e) => e.name === 'overview16-tiles');
  expect(tiles).toBeDefined();
  const onMain = (e: TraceEvent) => e.pid === tiles?.pid && e.tid === tiles.tid;
  // From the sign-in's answer (the app's shell and the overview mount on it) to the tiles inserted.
  const signInRequest = events.find((e) => e.name === 'ResourceSendRequest' && (e.args?.data?.url ?? '').endsWith('/ipc/session.signIn'))?.args?.data?.requestId;
  const answered = events.find((e) => e.name === 'ResourceFinish' && e.args?.data?.requestId === signInRequest);
  expect(answered).toBeDefined();
  const from = answered?.ts ?? 0;
  const to = tiles?.ts ?? 0;
  const scripts = events.filter((e) => onMain(e) && e.ph === 'X' && RUNS_SCRIPT.has(e.name) && e.ts + (e.dur ?? 0) >= from && e.ts <= to);
  expect(scripts.length).toBeGreaterThan(0);
  const forced = events.filter((e) => onMain(e) && e.ph === 'X' && e.name === 'Layout' && e.ts >= from && e.ts <= to && scripts.some((s) => e.ts >= s.ts && e.ts < s.ts + (s.dur ?? 0)));
  const forcedBy = (e: TraceEvent) => (e.args?.beginData?.stackTrace ?? []).map((f) => `${f.functionName || '(anonymous)'} ${f.url}:${f.lineNumber}:${f.columnNumber}`);
  expect(forced.map((e) => `Layout at +${Math.round((e.ts - from) / 1000)} ms, forced by ${forcedBy(e).join(' < ') || 'no script stack'}`)).toEqual([]);
});
}

for (const keyFirst of [false, true]) {
  test(`after signing in, focus lands on the overview's heading once its figures are shown${keyFirst ? '; a key pressed before them makes it then' : ''}`, async ({ openApp, page }) => {
    // The overview's answer held until the test lets it go: the figures come when the test says, whatever the load.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/ipc/overview.summary', async (route) => {
      await released;
      await route.continue();
    });
    await openApp();
    await signInTo(page, JORDAN);
    const heading = page.getByRole('heading', { name: 'Overview', level: 1 });
    await expect(page.getByText('Adding up your capacity policies…')).toBeVisible();
    // The sign-in button that had focus is gone; the move waits for the figures (focus.ts).
    expect(await page.evaluate('document.activeElement === document.body || document.activeElement?.id === "content"')).toBe(true);
    if (keyFirst) {
      await page.keyboard.press('Shift');
      await expect(heading).toBeFocused();
      await expect(page.getByTestId('tile-launching')).toHaveCount(0);
    }
    release();
    await expect(page.getByTestId('tile-launching')).toBeVisible();
    await expect(heading).toBeFocused();
  });
}

test('the tiles are painted on the overview’s answer alone: the fees and the customers are asked after (issue 25)', async ({ openApp, page }) => {
  // Every call the page makes, noted as it is made (the browser host's calls are fetches to /ipc/<channel>).
  await page.addInitScript(`(() => {
    window.__asked = [];
    const fetchFirst = window.fetch.bind(window);
    window.fetch = (input, init) => {
      window.__asked.push(String(input instanceof Request ? input.url : input).split('/ipc/')[1] ?? '');
      return fetchFirst(input, init);
    };
  })()`);
  await openApp();
  await page.evaluate(`(() => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="tile-launching"]')) return;
      observer.disconnect();
      window.__askedWithFigures = [...window.__asked];
      window.__customersWithFigures = document.querySelector('[data-testid="top-customers"]') !== null;
    });
    observer.observe(document.body, { subtree: true, childList: true });
  })()`);
  await signInTo(page, JORDAN);
  await expect(page.getByTestId('tile-launching')).toBeVisible();
  // Both are still asked, and shown, once the figures are on screen.
  await expect(page.getByTestId('tile-fees').getByTestId('figure-value')).toHaveText(await localAmount(page, 0));
  await expect(page.getByTestId('top-customers')).toBeVisible();
  const asked = (await page.evaluate('window.__askedWithFigures')) as string[];
  expect(asked).toContain('overview.summary');
  expect(asked.filter((channel) => channel === 'activity.statedFees' || channel === 'customers.overview')).toEqual([]);
  expect(await page.evaluate('window.__customersWithFigures')).toBe(false);
  expect((await page.evaluate('window.__asked')) as string[]).toEqual(expect.arrayContaining(['activity.statedFees', 'customers.overview']));
});

testOnSharedApp('the first screen’s calls leave as the page’s code starts, before the rest of it is evaluated (issue 25)', async ({ openSignedIn, page }) => {
  // Each call noted with whether Svelte's runtime had been evaluated by then (it discloses its version on window).
  await page.addInitScript(`(() => {
    window.__askedBeforeSvelte = {};
    const fetchFirst = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const channel = String(input instanceof Request ? input.url : input).split('/ipc/')[1] ?? '';
      window.__askedBeforeSvelte[channel] ??= window.__svelte === undefined;
      return fetchFirst(input, init);
    };
  })()`);
  await openSignedIn();
  await page.reload();
  await expect(page.getByTestId('tile-launching')).toBeVisible();
  const asked = (await page.evaluate('window.__askedBeforeSvelte')) as Record<string, boolean>;
  expect(asked).toMatchObject({ 'session.status': true, 'profiles.list': true, 'session.demoAccounts': true, 'views.state': true });
  // The overview is asked on the status's answer, which no code reads before the evaluation is over.
  expect(asked['overview.summary']).toBe(false);
});

testOnSharedApp('the fees tile never shows a sum it could not read (issue 25)', async ({ openSignedIn, page }) => {
  // The own data's fees cannot be read: the tile says so rather than showing no fees.
  await page.route('**/ipc/activity.statedFees', (route) => route.fulfill({ status: 500, body: '' }));
  await openSignedIn();
  await expect(page.getByTestId('tile-launching')).toBeVisible();
  await expect(page.getByTestId('tile-fees').getByTestId('figure-value')).toHaveText('Not read');
  // Nor a count of policies it did not read.
  await expect(page.getByTestId('tile-fees')).toContainText('for the policies this app canceled this calendar month: they could not be read.');
  await expect(page.getByTestId('tile-fees')).not.toContainText('0 policies');
});

testOnSharedApp('the fees tile counts no policies while the fees are being read', async ({ openSignedIn, page }) => {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/ipc/activity.statedFees', async (route) => {
    await answered;
    await route.fulfill({ status: 500, body: '' });
  });
  await openSignedIn();
  await expect(page.getByTestId('tile-launching')).toBeVisible();
  await expect(page.getByTestId('tile-fees').getByTestId('figure-value')).toHaveText('…');
  await expect(page.getByTestId('tile-fees')).toContainText('for the policies this app canceled this calendar month: being read.');
  await expect(page.getByTestId('tile-fees')).not.toContainText('0 policies');
  answer();
  await expect(page.getByTestId('tile-fees').getByTestId('figure-value')).toHaveText('Not read');
});
