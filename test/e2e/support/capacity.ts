import { LocalCapacityQuery as LocalCapacityQueryInput, type LocalCapacityQuery } from '../../../shared/ipc/offline.js';
import type { Locator, Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CapacityPolicy, type CapacityStatus } from '../../../shared/api/capacity.js';
import { SANDBOX_USERS, type SandboxUser } from '../../../sandbox/accounts.js';
import type { FaultRuleInput } from '../../../sandbox/controls/faults.js';
import type { EndpointName } from '../../../shared/api/endpoints.js';
import { sandboxAccess, startTestApp, type TestApp } from '../../support/test-app.js';
import { expect, signIn, test as appTest } from '../fixtures.js';
import { analyze, axeInScheme } from './axe.js';

/** Helpers of the capacity specs: sign-in, the sandbox's controls, a second window, axe and screenshots. */

export const ALEX = SANDBOX_USERS[0] as SandboxUser;
export const JORDAN = SANDBOX_USERS[1] as SandboxUser;
export const SCREENSHOT_DIR = join('artifacts', 'screenshots');

export { expect };

/** The app fixture, plus: any uncaught error in the renderer fails the test. */
export const test = appTest.extend({
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The CSP allows no inline styles or scripts: a violation would show as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
    await use(page);
    expect(errors, 'uncaught errors or CSP violations in the renderer').toEqual([]);
  },
});

/** `test` on the worker's shared app, for a read-only test in a spec whose other tests need apps of their own (fixtures.ts). */
export const testOnSharedApp = test.extend({ shareApp: true });

/** The same app as `test`, with the sandbox seeded at `scale` policies. */
export function scaledTest(scale: number) {
  return test.extend<{ app: TestApp }>({
    app: async ({}, use) => {
      const app = await startTestApp({ sandbox: { scale } });
      await use(app);
      await app.close();
    },
  });
}

export async function signInAs(page: Page, user: SandboxUser = ALEX): Promise<void> {
  await signIn(page, user.username, user.password);
  await expect(page.getByTestId('signed-in-user')).toHaveText(user.username);
}

export async function navTo(page: Page, label: 'Overview' | 'Capacity policies' | 'Search & purchase' | 'Linked accounts' | 'Renewals'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: label, exact: true }).click();
}

export async function openList(page: Page): Promise<void> {
  await navTo(page, 'Capacity policies');
  await expect(page.getByTestId('capacity-list-view')).toBeVisible();
  await expect(page.getByTestId('list-summary')).toContainText(/\d+ (\w+ )?polic(y|ies)/);
}

/** Opens a policy's detail through the command palette, as a user jumping to a known id would. */
export async function openDetail(page: Page, cidrId: string): Promise<void> {
  // The shortcut exists once the app is mounted and signed in (a fresh tab or a reload may still be loading).
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  await palette.getByRole('combobox').fill(cidrId);
  await palette.getByRole('combobox').press('Enter');
  await expect(page.getByTestId('detail-cidr')).toHaveText(cidrId);
}

/**
 * Another window of the same app: the main process's own handlers, with the
 * same session and the same money-action guard as the page's calls.
 */
export function otherWindow(app: TestApp) {
  return app.services.handlers;
}

/** The capacity list as another window asks for it (the input parsed as the IPC layer would). */
export function listFromOtherWindow(app: TestApp, query: LocalCapacityQuery) {
  return otherWindow(app)['capacity.list'](LocalCapacityQueryInput.parse(query));
}

/** Every policy of the signed-in user with a status, oldest first (through the other window). */
export async function policiesWithStatus(app: TestApp, status: CapacityStatus): Promise<CapacityPolicy[]> {
  const page = await listFromOtherWindow(app, { offset: 0, limit: 100, sortOrder: 'asc', status });
  // The sandbox answers in full: every row reads strictly.
  return page.rows.map((row) => CapacityPolicy.parse(row));
}

export async function firstWithStatus(app: TestApp, status: CapacityStatus, where: (p: CapacityPolicy) => boolean = () => true): Promise<CapacityPolicy> {
  const found = (await policiesWithStatus(app, status)).find(where);
  if (!found) throw new Error(`no ${status} policy in the seeded sandbox`);
  return found;
}

/** A test control of the in-process sandbox (clock, faults, stats). */
export async function sandboxControl<T = unknown>(app: TestApp, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${app.services.sandbox.url}/sandbox${path}`, {
    method,
    headers: { ...sandboxAccess(app.services), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} /sandbox${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

export function addFault(app: TestApp, rule: FaultRuleInput): Promise<unknown> {
  return sandboxControl(app, 'POST', '/faults', rule);
}

export function clearFaults(app: TestApp): Promise<unknown> {
  return sandboxControl(app, 'DELETE', '/faults');
}

/** Requests the sandbox has answered per endpoint since the last reset. */
export async function requestCount(app: TestApp, endpoint: EndpointName): Promise<number> {
  const stats = await sandboxControl<Record<string, number>>(app, 'GET', '/stats');
  return stats[endpoint] ?? 0;
}

/** Moves the sandbox clock past the token's lifetime: the service now refuses the token. */
export async function expireSession(app: TestApp): Promise<void> {
  await sandboxControl(app, 'POST', '/clock', { advanceSeconds: 3601 });
}

/** The re-sign-in dialog (ReauthDialog): the password again, then back to the same view. */
export async function signInAgain(page: Page, user: SandboxUser = ALEX): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Sign in again' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password').fill(user.password);
  await dialog.getByLabel('Password').press('Enter');
  await expect(dialog).toBeHidden();
}

/** axe-core finds nothing, in the light and the dark theme (its colour rules: see COLOUR_RULES). Leaves the page in light. */
export async function expectAccessible(page: Page, label: string, include?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    let builder = axeInScheme(page, colorScheme);
    if (include) builder = builder.include(include);
    const { violations } = await analyze(builder);
    const summary = violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
    expect(summary, `axe on ${label}, ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A 1280x800 picture of the page for review, light and dark, under artifacts/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `capacity-${name}-${colorScheme}.png`), animations: 'disabled', caret: 'hide' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Types the policy id into an open cancel dialog when it asks for it (a fee
 * that may not be zero needs that deliberate step); a free cancel has no field.
 */
export async function typeCancelConfirmation(dialog: Locator, cidrId: string): Promise<void> {
  await expect(dialog.getByRole('button', { name: 'Keep policy' })).toBeVisible();
  const field = dialog.getByLabel('Type the policy id or the fee to confirm');
  if ((await field.count()) > 0) await field.fill(cidrId);
}

/**
 * Confirms a reviewed bulk auto-renewal change of 20 policies with the sandbox failing one request:
 * 19 done and 1 failed from 20 requests, then the retry sends the failed one alone (21 in all).
 */
export async function applyTwentyWithOneFault(app: TestApp, dialog: Locator): Promise<void> {
  await sandboxControl(app, 'POST', '/stats/reset');
  await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/capacity/auto-renewal', method: 'PUT', errorRate: 1, errorStatus: 500, errorCount: 1 });
  await dialog.getByRole('button', { name: 'Apply to 20 policies' }).click();
  await expect(dialog.getByTestId('bulk-summary')).toHaveText('19 done, 1 failed');
  await expect(dialog.locator('tr[data-outcome="failed"]')).toHaveCount(1);
  await expect(dialog.locator('tr[data-outcome="failed"]')).toContainText('Failed: The service had a problem');
  expect(await requestCount(app, 'setAutoRenewal')).toBe(20);

  // Only the failed one is sent again.
  await dialog.getByRole('button', { name: 'Retry the 1 failed policy' }).click();
  await expect(dialog.getByTestId('bulk-summary')).toHaveText('20 done');
  expect(await requestCount(app, 'setAutoRenewal')).toBe(21);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
}
