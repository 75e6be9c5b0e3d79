/**
 * Issue 29, item 9: every date a form asks for is a DateEntry, typed in the
 * person's locale order (or YYYY-MM-DD) and stepped with the keyboard; an
 * impossible day is said in words and nothing is sent or saved with it.
 * Keyboard only: no clicks on the fields.
 */
import type { Page } from '@playwright/test';
import { WorklistQuery } from '../../shared/ipc/worklist.js';
import { expect, expectAccessible, navTo, otherWindow, test, testOnSharedApp } from './support/capacity.js';

test.describe.configure({ timeout: 60_000 });
// A zone without daylight saving, so the search's offset taken from the OS is known: +05:30.
test.use({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });

async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  if (text) await page.keyboard.type(text);
}

testOnSharedApp('search dates: typed in the locale order, Up/Down a day, Page Up/Down a month, an impossible year said and never sent', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await navTo(page, 'Search & purchase');
  const form = page.getByTestId('search-form');
  const start = form.getByLabel('Start date');
  const end = form.getByLabel('End date');
  const field = (label: string) => form.locator('.field', { has: page.getByLabel(label) });
  await expect(start).toHaveAttribute('placeholder', 'MM/DD/YYYY');

  await start.focus();
  await retype(page, '3/1/2027');
  await page.keyboard.press('Tab');
  await expect(start).toHaveValue('03/01/2027');
  await expect(field('Start date')).toContainText('Sent as 03/01/2027');

  await start.focus();
  await page.keyboard.press('ArrowUp');
  await expect(start).toHaveValue('03/02/2027');
  await page.keyboard.press('PageUp');
  await expect(start).toHaveValue('04/02/2027');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(start).toHaveValue('03/31/2027');
  await page.keyboard.press('PageDown');
  await expect(start).toHaveValue('02/28/2027');
  await expect(field('Start date')).toContainText('Sent as 02/28/2027');

  // The year that the native field produced from a few keystrokes too many.
  await end.focus();
  await retype(page, '12/01/262027');
  await page.keyboard.press('Tab');
  const problem = field('End date').getByRole('alert');
  await expect(problem).toHaveText('Write the year with four digits, e.g. 12/01/2026.');
  await expect(end).toHaveAttribute('aria-invalid', 'true');
  await expect(end).toHaveValue('12/01/262027');
  await expect(field('End date')).not.toContainText('Sent as');
  await expect(field('End date').getByTestId('field-error')).toHaveCount(0);
  await expectAccessible(page, 'search form with an impossible date', '[data-testid="search-form"]');

  await end.focus();
  await retype(page, '2027-03-20');
  await page.keyboard.press('Tab');
  await expect(end).toHaveValue('03/20/2027');
  await expect(problem).toHaveCount(0);
  await expect(field('End date')).toContainText('Sent as 03/20/2027');

  // An empty end date steps from the start date.
  await end.focus();
  await retype(page, '');
  await page.keyboard.press('ArrowUp');
  await expect(end).toHaveValue('02/28/2027');
});

test('the worklist snooze: an impossible day is said and nothing is saved; a typed day is saved as that day', async ({ openSignedIn, app }) => {
  const page = await openSignedIn();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
  await navTo(page, 'Renewals');
  await page.getByRole('radio', { name: '90 days' }).check();
  const worklist = await otherWindow(app)['worklist.query'](WorklistQuery.parse({ horizonDays: 90, limit: 5 }));
  const first = worklist.rows[0]!;
  await page.getByRole('button', { name: `Note and snooze for ${first.policy.policyName ?? first.policy.cidrId}` }).click();
  const dialog = page.getByRole('dialog', { name: /Note and snooze/ });
  const snooze = dialog.getByLabel('Snoozed until');
  await snooze.focus();
  await retype(page, '02/30/2027');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('There is no day 30 in February 2027: it has 28 days.');
  await expect(dialog).toBeVisible();
  await expect(snooze).toBeFocused();
  const unsaved = await otherWindow(app)['worklist.query'](WorklistQuery.parse({ horizonDays: 90, limit: 5, includeSnoozed: true }));
  expect(unsaved.rows.find((r) => r.policy.cidrId === first.policy.cidrId)?.entry ?? null).toBeNull();
  await expectAccessible(page, 'snooze with an impossible day', '[data-testid="worklist-entry-dialog"]');

  await retype(page, '3/1/2027');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const saved = await otherWindow(app)['worklist.query'](WorklistQuery.parse({ horizonDays: 90, limit: 500, includeSnoozed: true }));
  expect(saved.rows.find((r) => r.policy.cidrId === first.policy.cidrId)?.entry?.snoozedUntil).toBe('2027-03-01');
});
