import { readFile } from 'node:fs/promises';
import readXlsxFile from 'read-excel-file/node';
import type { Page } from '@playwright/test';
import { openAccountMenu } from './fixtures.js';
import { JORDAN, expect, expectAccessible, listFromOtherWindow, openList, screenshot, signInAs, test, testOnSharedApp } from './support/capacity.js';

const table = (page: Page) => page.getByTestId('capacity-table');
const header = (page: Page, name: RegExp) => table(page).getByRole('columnheader', { name });

test.describe.configure({ timeout: 120_000 });

testOnSharedApp('one scroll area at 1280x800: the window does not scroll and the pager stays in view', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await openList(page);
  await expect(page.getByRole('navigation', { name: 'Policy pages' })).toBeInViewport();
  // The window itself does not scroll: only the grid does.
  await page.mouse.move(640, 140);
  await page.mouse.wheel(0, 600);
  expect(await page.evaluate<number>('window.scrollY')).toBe(0);
  // Scrolling the grid to its end leaves the pager where it was.
  await table(page).focus();
  await page.keyboard.press('End');
  await expect(page.getByRole('navigation', { name: 'Policy pages' })).toBeInViewport();
  await screenshot(page, 'list-one-scroll-area');
});

testOnSharedApp('headers sort with aria-sort from the keyboard, and no "Sort by" select is left', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await openList(page);
  await expect(page.getByLabel('Sort by')).toHaveCount(0);
  const name = header(page, /Policy name/);
  await expect(name).toHaveAttribute('aria-sort', 'none');
  await name.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(name).toHaveAttribute('aria-sort', 'ascending');
  const first = await table(page).locator('[role="row"][data-index="0"]').getAttribute('aria-label');
  await page.keyboard.press('Space');
  await expect(name).toHaveAttribute('aria-sort', 'descending');
  await expect(table(page).locator('[role="row"][data-index="0"]')).not.toHaveAttribute('aria-label', first ?? '');
  // Only one header says it sorts.
  await expect(table(page).locator('[role="columnheader"][aria-sort="ascending"], [role="columnheader"][aria-sort="descending"]')).toHaveCount(1);
  // Enter on a header sorts; it does not open a policy.
  await expect(page.getByTestId('capacity-list-view')).toBeVisible();
});

test('the column chooser and widths are kept per user, across a reload', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await openList(page);
  await expect(header(page, /Provider price/)).toHaveCount(0);
  await page.getByTestId('column-chooser').getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Provider price' }).check();
  await page.getByRole('checkbox', { name: 'Linked account' }).uncheck();
  await expect(header(page, /Provider price/)).toBeVisible();
  await expect(header(page, /Linked account/)).toHaveCount(0);

  // Resized from the keyboard: the separator's value is the width.
  const width = page.getByRole('separator', { name: 'Width of Policy name' });
  await expect(width).toHaveAttribute('aria-valuenow', '200');
  await width.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(width).toHaveAttribute('aria-valuenow', '232');
  await expectAccessible(page, 'capacity list after choosing columns');
  // A click elsewhere puts the chooser away.
  await page.getByRole('heading', { name: 'Capacity policies' }).click();
  await expect(page.getByRole('checkbox', { name: 'Provider price' })).toBeHidden();

  await page.reload();
  await openList(page);
  await expect(header(page, /Provider price/)).toBeVisible();
  await expect(header(page, /Linked account/)).toHaveCount(0);
  await expect(page.getByRole('separator', { name: 'Width of Policy name' })).toHaveAttribute('aria-valuenow', '232');

  // Another user on this computer starts from the first layout.
  await openAccountMenu(page);
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-out-dialog').getByRole('button', { name: 'Sign out' }).click();
  await signInAs(page, JORDAN);
  await openList(page);
  await expect(header(page, /Provider price/)).toHaveCount(0);
  await expect(header(page, /Linked account/)).toBeVisible();
});

testOnSharedApp('the export holds the columns shown, typed, in a dated CSV and an XLSX another reader reads', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await openList(page);
  await page.getByTestId('status-filter').getByRole('radio', { name: 'Active' }).check();
  const shown = await table(page).getByRole('columnheader').allTextContents();
  expect(shown.length).toBeGreaterThan(5);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Excel' }).click();
  const download = await downloading;
  const today = await page.evaluate<string>(
    "(() => { const d = new Date(); return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`; })()",
  );
  expect(download.suggestedFilename()).toBe(`Capacity policies active ${today}.xlsx`);
  const sheets = await readXlsxFile(await readFile((await download.path()) as string));
  const read = (sheets[0] as { data: unknown[][] }).data;
  expect(read[0]).toEqual([
    'Policy ID', 'Policy name', 'Account', 'Customer', 'Status', 'Instance type', 'Quantity', 'Availability zone', 'Launch', 'End', 'Auto-renewal', 'Our price', 'Currency', 'Savings', 'Savings %',
  ]);
  const first = read[1] as unknown[];
  expect(first[4]).toBe('Active');
  expect(first[8]).toBeInstanceOf(Date);
  expect(first[12]).toBe('USD');
  expect(typeof first[14]).toBe('number');
  expect(first[14] as number).toBeLessThan(1);
  expect(String(first[10])).toMatch(/^(Off|On · .+)$/);

  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csvFile = await csv;
  expect(csvFile.suggestedFilename()).toBe(`Capacity policies active ${today}.csv`);
  const text = (await readFile((await csvFile.path()) as string, 'utf8')).replace(/^\uFEFF/, '');
  const line = text.split('\r\n')[1] ?? '';
  expect(line).toMatch(/,Active,/);
  expect(line).toMatch(/,\d{4}-\d\d-\d\d \d\d:\d\d,/);
  expect(line).toMatch(/,\d+(\.\d+)?%$/);
});

testOnSharedApp('filters by account, instance type, zone and launch days beside the status; a saved view comes back from the navigation and the palette', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await openList(page);
  const all = (await listFromOtherWindow(app, { limit: 500 })).rows;
  const target = all[3]!;
  const account = target.cspAccountName!;
  const filters = page.getByTestId('capacity-filters');
  await filters.getByLabel('Account').fill(account.toUpperCase());
  await filters.getByLabel('Account').press('Enter');
  const ofAccount = all.filter((row) => row.cspAccountName === account);
  await expect(page.getByTestId('list-summary')).toContainText(`${ofAccount.length} ${ofAccount.length === 1 ? 'policy' : 'policies'}`);
  await filters.getByLabel('Instance type').fill(target.policyInstance!.instanceType!);
  await filters.getByLabel('Instance type').press('Enter');
  const both = ofAccount.filter((row) => row.policyInstance?.instanceType === target.policyInstance!.instanceType);
  await expect(page.getByTestId('list-summary')).toContainText(`${both.length} ${both.length === 1 ? 'policy' : 'policies'}`);

  // A date that is not a day is said, next to the field, and the list stays as it was.
  await filters.getByLabel('Launch from').fill('2026-02-30');
  await filters.getByLabel('Launch from').press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'There is no day 30 in February 2026: it has 28 days.' })).toBeVisible();
  await expect(filters.getByLabel('Launch from')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('list-summary')).toContainText(`${both.length} `);
  await filters.getByLabel('Launch from').fill('');
  await filters.getByLabel('Launch from').press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'There is no day' })).toHaveCount(0);
  await expectAccessible(page, 'capacity list with filters');

  // Saved: filters, sort and columns.
  await header(page, /Our price/).getByRole('button').click();
  await page.getByTestId('save-view').getByText('Save view').click();
  await page.getByLabel('Name of this view').fill('__proto__ <b>accounts</b>');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('list-summary')).toContainText(`${all.length} policies`);

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByText('Views').click();
  await nav.getByRole('button', { name: '__proto__ <b>accounts</b>', exact: true }).click();
  await expect(page.getByTestId('list-summary')).toContainText(`${both.length} `);
  await expect(header(page, /Our price/)).toHaveAttribute('aria-sort', 'descending');
  await expect(filters.getByLabel('Account')).toHaveValue(account.toUpperCase());

  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  await palette.getByRole('combobox').fill('__proto__');
  await palette.getByRole('combobox').press('Enter');
  await expect(page.getByTestId('list-summary')).toContainText(`${both.length} `);
});
