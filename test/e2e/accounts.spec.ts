import { ALEX, expectAccessible, goTo, screenshot } from './cyber-support.js';
import { expect, test } from './fixtures.js';

// Reads only: one app per worker (fixtures.ts).
test.use({ shareApp: true });

test.describe('in a German locale and the Tokyo timezone', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Asia/Tokyo' });

  test('linked-at is shown in the user’s locale and timezone', async ({ openSignedIn }) => {
    const page = await openSignedIn();
    await goTo(page, 'Linked accounts');
    const table = page.getByTestId('accounts-table');
    for (const account of ALEX.linkedAccounts) {
      const expected = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' }).format(
        new Date(account.linkedAt),
      );
      await expect(table.getByRole('row', { name: new RegExp(account.accountName) }).locator('time')).toHaveText(expected);
    }
    await expect(page.getByRole('columnheader', { name: /Linked at/ })).toContainText('GMT+9');
  });
});

test('search, sort by any column, and copy an id to the clipboard', async ({ openSignedIn, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openSignedIn();
  await goTo(page, 'Linked accounts');
  const rows = page.getByTestId('account-row');
  await expect(rows).toHaveCount(ALEX.linkedAccounts.length);

  // Default order: by name.
  const byName = [...ALEX.linkedAccounts].sort((a, b) => a.accountName.localeCompare(b.accountName));
  await expect(rows.getByTestId('account-id')).toHaveText(byName.map((a) => a.accountId));

  // Newest link first, then oldest first.
  await page.getByTestId('sort-linkedAt').click();
  const newest = [...ALEX.linkedAccounts].sort((a, b) => Date.parse(b.linkedAt) - Date.parse(a.linkedAt));
  await expect(rows.getByTestId('account-id')).toHaveText(newest.map((a) => a.accountId));
  await expect(page.getByRole('columnheader', { name: /Linked at/ })).toHaveAttribute('aria-sort', 'descending');
  await page.getByTestId('sort-linkedAt').click();
  await expect(rows.getByTestId('account-id')).toHaveText([...newest].reverse().map((a) => a.accountId));

  // Provider, descending on the second click.
  await page.getByTestId('sort-provider').click();
  await page.getByTestId('sort-provider').click();
  await expect(rows.first()).toContainText('GCP');
  await expect(page.getByRole('columnheader', { name: /Provider/ })).toHaveAttribute('aria-sort', 'descending');

  // Search by any column, any case; "/" jumps to the box.
  await page.getByRole('heading', { name: 'Linked accounts' }).click();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Search')).toBeFocused();
  await page.keyboard.type('aws LINKED');
  const aws = ALEX.linkedAccounts.filter((a) => a.provider === 'AWS' && a.status === 'LINKED');
  await expect(rows).toHaveCount(aws.length);
  await expect(page.getByTestId('accounts-count')).toHaveText(`${aws.length} of ${ALEX.linkedAccounts.length} accounts match`);
  await page.getByLabel('Search').fill('no-such-account');
  await expect(page.getByTestId('empty-state')).toContainText('No account matches “no-such-account”');
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(rows).toHaveCount(ALEX.linkedAccounts.length);

  // Copy: the clipboard holds the id, and screen readers hear "Copied".
  const azure = ALEX.linkedAccounts.find((a) => a.provider === 'Azure')!;
  const copy = page.getByRole('button', { name: `Copy account ID ${azure.accountId}` });
  await copy.click();
  const clipboard = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );
  expect(clipboard).toBe(azure.accountId);
  await expect(page.getByTestId('announcer')).toHaveText('Copied account ID');
});

test('the accounts view is accessible in light and dark, and looks right', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await goTo(page, 'Linked accounts');
  await expect(page.getByTestId('account-row').first()).toBeVisible();
  await expectAccessible(page, 'linked accounts');
  await screenshot(page, 'accounts');
  await screenshot(page, 'accounts', 'dark');
});
