import { build } from 'esbuild';
import { expect, test, type Page } from '@playwright/test';

/**
 * The launch's first screen is mounted out of the document and put in whole (renderer/lib/first-screen-hold.ts,
 * issue 25, branch overview18); the overview heading's focus move waits for the heading to be in the document
 * (renderer/components/ui/focus.ts). Both run here in real Chromium, bundled as the page ships them, on a page of
 * their own: no clock decides any outcome (the longest hold is waited for, never timed).
 */
async function withModules(page: Page): Promise<void> {
  const bundle = await build({
    stdin: {
      contents: "export { FirstScreenHold } from './renderer/lib/first-screen-hold.ts'; export { focusIfLost } from './renderer/components/ui/focus.ts';",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: 'firstScreen',
    write: false,
    logLevel: 'error',
  });
  await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main id="content" tabindex="-1"><p id="before">before</p><div id="app"><h1 id="heading" tabindex="-1">Overview</h1></div><p id="after">after</p></main></body></html>');
  await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
}

test('the first screen held out of the document goes back where it was, once, when released or at its longest', async ({ page }) => {
  await withModules(page);
  const out = await page.evaluate(`(() => {
    const root = document.getElementById('app');
    const hold = new firstScreen.FirstScreenHold(root, 3600000);
    window.__hold = hold;
    return { connected: root.isConnected, holding: hold.holding, between: document.getElementById('before').nextSibling.nodeType };
  })()`);
  // Out of the document, a comment keeping its place.
  expect(out).toEqual({ connected: false, holding: true, between: 8 });
  const back = await page.evaluate(`(() => {
    window.__hold.release();
    window.__hold.release();
    const root = document.getElementById('app');
    return { connected: root.isConnected, holding: window.__hold.holding, order: [...document.querySelector('main').children].map((e) => e.id), comments: [...document.querySelector('main').childNodes].filter((n) => n.nodeType === 8).length };
  })()`);
  expect(back).toEqual({ connected: true, holding: false, order: ['before', 'app', 'after'], comments: 0 });

  // Not released: it goes back by itself at its longest.
  await page.evaluate(`window.__hold = new firstScreen.FirstScreenHold(document.getElementById('app'), 50)`);
  await expect(page.locator('#app')).toBeAttached();
  expect(await page.evaluate(`window.__hold.holding`)).toBe(false);
});

test("a key pressed while the first screen is out of the document still leaves the heading's focus move for when it is in (review17's key, branch overview18)", async ({ page }) => {
  await withModules(page);
  const focused = await page.evaluate(`(async () => {
    const root = document.getElementById('app');
    const heading = document.getElementById('heading');
    const hold = new firstScreen.FirstScreenHold(root, 3600000);
    // The overview's heading, its move held until the figures are painted (ready false), as the mount makes it.
    const action = firstScreen.focusIfLost(heading, false);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));
    await Promise.resolve();
    hold.release();
    // The figures painted: the move is made now.
    action.update(true);
    await new Promise((resolve) => queueMicrotask(resolve));
    return document.activeElement === heading;
  })()`);
  expect(focused).toBe(true);
});
