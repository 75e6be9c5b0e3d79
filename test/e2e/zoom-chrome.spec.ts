/**
 * Issue 29, item 8: at 200 % zoom (a 1280x800 window is 640x400 CSS px) the
 * header and the status area must not take half the height: the header is
 * compact, and both scroll away with the page. Measured on each main view.
 */
import type { Page } from '@playwright/test';
import { expect, navTo, openList, test, testOnSharedApp } from './support/capacity.js';

test.describe.configure({ timeout: 90_000 });

const VIEWS = ['Overview', 'Capacity policies', 'Search & purchase', 'Linked accounts', 'Renewals'] as const;

/** How many CSS px of the viewport's height the header and the status area cover now. */
async function chromeHeights(page: Page): Promise<{ header: number; status: number; viewport: number }> {
  return page.locator('body').evaluate((body) => {
    const { innerHeight } = body.ownerDocument.defaultView!;
    const visible = (selector: string) => {
      const box = body.ownerDocument.querySelector(selector)?.getBoundingClientRect();
      return box ? Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0)) : 0;
    };
    return { header: Math.round(visible('.topbar')), status: Math.round(visible('.status-area')), viewport: innerHeight };
  });
}

async function open(page: Page, view: (typeof VIEWS)[number]): Promise<void> {
  if (view === 'Capacity policies') await openList(page);
  else await navTo(page, view);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await scrollTo(page, () => 0);
}

/** Scrolls the page to where `at` says, given its scroll height and the viewport's; answers where it went. */
async function scrollTo(page: Page, at: (scrollHeight: number, viewportHeight: number) => number): Promise<number> {
  const [scrollHeight, viewportHeight] = await page.locator('body').evaluate((body) => [body.ownerDocument.scrollingElement!.scrollHeight, body.ownerDocument.defaultView!.innerHeight]);
  const y = at(scrollHeight!, viewportHeight!);
  return page.locator('body').evaluate((body, to) => {
    const window = body.ownerDocument.defaultView!;
    window.scrollTo(0, to);
    return window.scrollY;
  }, y);
}

test.describe('at 200 % zoom', () => {
  test.use({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });

  testOnSharedApp('the header and the status area take at most a third of the height at the top, and scroll away below it', async ({ openSignedIn }) => {
    const page = await openSignedIn();
    await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
    for (const view of VIEWS) {
      await open(page, view);
      const top = await chromeHeights(page);
      expect(top.header + top.status, `${view} at the top: ${JSON.stringify(top)}`).toBeLessThanOrEqual(top.viewport / 3);
      // Scrolled into the view: neither stays over it.
      if ((await scrollTo(page, (height, viewport) => Math.min(300, height - viewport - 200))) >= 150) {
        const scrolled = await chromeHeights(page);
        expect(scrolled.header + scrolled.status, `${view} scrolled: ${JSON.stringify(scrolled)}`).toBe(0);
      }
    }
  });
});

testOnSharedApp('in a full-size window the status area stays in view at the foot', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await open(page, 'Overview');
  await scrollTo(page, (height) => height);
  const box = await page.getByTestId('replica-status').boundingBox();
  expect(box).not.toBeNull();
  expect(Math.abs(box!.y + box!.height - 800)).toBeLessThanOrEqual(2);
  expect(await page.getByTestId('replica-status').evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).position)).toBe('sticky');
});
