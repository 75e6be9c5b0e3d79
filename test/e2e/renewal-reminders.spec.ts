import { PreferencesPatch } from '../../shared/ipc/desktop.js';
import { expect, otherWindow, test } from './support/capacity.js';

/**
 * Issue 28: the browser host's page shows the renewal digest with the
 * browser's notifications, computed by the main process from the local copy
 * and given once. The page's clock is Playwright's, so ten minutes pass in a
 * moment; the browser's Notification is a recorder, granted, whose click the
 * test makes as a person would.
 */
interface Shown {
  readonly title: string;
  readonly body: string;
}

test('the page shows the renewal digest once, however often it asks, and a click on it opens the worklist', async ({ openSignedIn, app, page }) => {
  test.setTimeout(120_000);
  await page.clock.install();
  await page.addInitScript(() => {
    const shown: Array<{ title: string; body: string; click: () => void }> = [];
    class RecordedNotification {
      static readonly permission = 'granted';
      static requestPermission(): Promise<string> {
        return Promise.resolve('granted');
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        shown.push({ title, body: options?.body ?? '', click: () => this.onclick?.() });
      }
      close(): void {}
    }
    Object.assign(globalThis, { Notification: RecordedNotification, shownNotifications: shown });
  });
  const shown = () => page.evaluate(() => (globalThis as unknown as { shownNotifications: Shown[] }).shownNotifications.map(({ title, body }) => ({ title, body })));

  await otherWindow(app)['preferences.set'](PreferencesPatch.parse({ reminderLeadDays: [60, 30, 7, 1] }));
  await openSignedIn();
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });

  let asked = 0;
  page.on('requestfinished', (request) => {
    if (request.url().includes('/ipc/reminders.take')) asked += 1;
  });
  // The page asks 15 s after it opens and every 10 minutes: ten minutes on, it has asked with the copy filled.
  await page.clock.fastForward('10:00');
  await expect.poll(async () => (await shown()).length, { timeout: 20_000 }).toBe(1);
  const [digest] = await shown();
  expect(digest?.title).toMatch(/renew|launch|end/i);
  expect(digest?.body.length).toBeGreaterThan(0);

  // Asked again, twice: the same reminders are never given twice.
  const before = asked;
  await page.clock.fastForward('10:00');
  await expect.poll(() => asked, { timeout: 20_000 }).toBeGreaterThan(before);
  await page.clock.fastForward('10:00');
  await expect.poll(() => asked, { timeout: 20_000 }).toBeGreaterThan(before + 1);
  expect(await shown()).toHaveLength(1);
  expect(await otherWindow(app)['reminders.take'](undefined)).toBeNull();

  // A click on the notification opens the worklist.
  await page.evaluate(() => (globalThis as unknown as { shownNotifications: Array<{ click: () => void }> }).shownNotifications[0]?.click());
  await expect(page.getByRole('heading', { level: 1, name: 'Renewals' })).toBeVisible();
});
