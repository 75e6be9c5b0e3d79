import type { FaultRuleInput } from '../../sandbox/controls/faults.js';
import { MESSAGE } from '../../shared/api/contract-choices.js';
import { ResilientSecretStore } from '../../electron/services/secrets/resilient-secret-store.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SwitchableSecretStore } from '../support/switchable-secret-store.js';
import { openAccountMenu } from './fixtures.js';
import {
  addFault,
  clearFaults,
  expect,
  firstWithStatus,
  navTo,
  openDetail,
  requestCount,
  sandboxControl,
  signInAs,
  test as base,
} from './support/capacity.js';

/**
 * The fault matrix of docs/security.md, through the real UI: for each fault a
 * clear message, a way to retry, and nothing the user typed lost; money
 * actions are sent once, whatever happens to the answer.
 */
const SHORT_TIMEOUTS = { timeouts: { connectMs: 2_000, headersMs: 1_500, bodyMs: 1_500 } };

const test = base.extend<{ app: TestApp }>({
  app: async ({ appOptions }, use) => {
    const app = await startTestApp({ http: SHORT_TIMEOUTS, moneyCheckDelaysMs: [300, 1_500, 3_000], ...appOptions });
    await use(app);
    await app.close();
  },
});
test.describe.configure({ timeout: 60_000 });

const PUT_CONFIG = { pathPrefix: '/external/api/v1/flexcompute/capacity-configuration', method: 'PUT' } as const;
const FAULTS: ReadonlyArray<[name: string, rule: FaultRuleInput, heading: RegExp]> = [
  ['latency beyond the timeout', { ...PUT_CONFIG, latencyMs: 4_000 }, /taking too long/],
  ['a 500', { ...PUT_CONFIG, errorRate: 1, errorStatus: 500, errorCount: 1 }, /had a problem/],
  ['a 503 burst', { ...PUT_CONFIG, errorRate: 1, errorStatus: 503, errorCount: 3 }, /had a problem/],
  ['a dropped connection', { ...PUT_CONFIG, dropRate: 1, dropCount: 1 }, /cannot be reached/],
  ['malformed JSON', { ...PUT_CONFIG, malformedRate: 1, malformedCount: 1 }, /unexpected/],
];

for (const [name, rule, heading] of FAULTS) {
  test(`saving a configuration through ${name}: a clear message, the typed values kept, and a retry that works`, async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    const policy = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');
    await openDetail(page, policy.cidrId);
    await page.getByRole('button', { name: 'Edit configuration' }).click();
    const form = page.getByTestId('configure-form');
    await form.getByLabel('VPC').fill('vpc-0fa17ed5');
    await form.getByLabel('Key pair').fill('ops-key-2026');

    await addFault(app, rule);
    await form.getByRole('button', { name: 'Save configuration' }).click();
    const message = form.getByRole('alert');
    await expect(message).toContainText(heading, { timeout: 15_000 });
    await expect(form.getByLabel('VPC')).toHaveValue('vpc-0fa17ed5');
    await expect(form.getByLabel('Key pair')).toHaveValue('ops-key-2026');
    // A PUT is never resent by the client on its own.
    expect(await requestCount(app, 'configureCapacity')).toBe(1);

    await clearFaults(app);
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await expect(page.getByTestId('configure-form')).toBeHidden({ timeout: 10_000 });
    await expect(page.getByTestId('policy-configuration').or(page.locator('#content'))).toContainText('vpc-0fa17ed5');
  });
}

test.describe('before the local copy exists, the list pages the service', () => {
  test.use({ appOptions: { refreshReplicaAtSignIn: false } });

  test('a 503 burst on a list is retried quietly; a 500 shows Try again, which recovers', async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/capacities', errorRate: 1, errorStatus: 503, errorCount: 2 });
    await navTo(page, 'Capacity policies');
    await expect(page.getByTestId('capacity-table').getByRole('row').nth(1)).toBeVisible({ timeout: 15_000 });
    // Both 503s were answered, and still the list came up without a word to the user.
    const fired = async () => (await sandboxControl<{ rules: Array<{ fired: { error: number } }> }>(app, 'GET', '/faults')).rules[0]?.fired.error;
    await expect.poll(fired).toBe(2);
    await expect(page.locator('#content').getByRole('alert')).toHaveCount(0);

    await clearFaults(app);
    // Every list request fails while the fault is on (other screens' background reads included, so
    // none of them can take the failure away from the refresh under test).
    await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/capacities', errorRate: 1, errorStatus: 500 });
    await page.getByRole('button', { name: /refresh/i }).first().click();
    // Whether the 500 hits the first page or a later block of rows, the service's own words are shown.
    const alert = page.locator('#content').getByRole('alert');
    await expect(alert).toContainText(MESSAGE.unexpected);
    await clearFaults(app);
    await alert.getByRole('button', { name: /try again/i }).click();
    await expect(page.getByTestId('capacity-table').getByRole('row').nth(1)).toBeVisible();
  });
});

test('a purchase whose answer never comes is sent once, read back, and the user is told where it stands', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  const ready = await firstWithStatus(app, 'READY_FOR_PURCHASE');
  await openDetail(page, ready.cidrId);
  await sandboxControl(app, 'POST', '/stats/reset');
  await addFault(app, { pathPrefix: '/external/api/v1/flexcompute/purchase', method: 'POST', latencyMs: 2_500 });
  await page.getByTestId('policy-actions').getByRole('button', { name: 'Purchase…' }).click();
  await page.getByRole('button', { name: /^Purchase for/ }).dblclick();
  await expect(page.getByText(/It was not sent again|not sent again|was not resent/i).first()).toBeVisible({ timeout: 20_000 });
  expect(await requestCount(app, 'purchaseCapacity')).toBe(1);
});

test.describe('the keychain stops answering mid-session', () => {
  const keychain = new SwitchableSecretStore();
  const withFlakyKeychain = test.extend<{ app: TestApp }>({
    app: async ({}, use) => {
      const app = await startTestApp({ secrets: new ResilientSecretStore(keychain) });
      await use(app);
      await app.close();
    },
  });

  withFlakyKeychain('the app carries on in memory and says why; signing in again works', async ({ openSignedIn, app }) => {
    const page = await openSignedIn();
    expect(app.services.secrets.status.kind).toBe('keychain');
    keychain.failing = true;
    await openAccountMenu(page);
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Capacity Desk' })).toBeVisible();
    await expect(page.getByTestId('keychain-notice')).toContainText('keyring is locked');
    await signInAs(page);
    await expect(page.getByTestId('keychain-notice')).toContainText('memory only');
  });
});
