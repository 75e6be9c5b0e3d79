import { expect, test } from '@playwright/test';
import { axeOn } from './support/axe.js';

/** The axe runs of the other specs are only as good as this: run in the page, it still finds what is wrong. */
test('axe run inside the page finds a violation, and refuses a page with a frame it would not check', async ({ page }) => {
  await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><img src="data:,"></main></body></html>');
  const { violations } = await axeOn(page).analyze();
  expect(violations.map((v) => v.id)).toContain('image-alt');

  await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><iframe title="f" srcdoc="<p>x</p>"></iframe></main></body></html>');
  expect(() => axeOn(page)).toThrow(/checks no frames/);
});

test('a second analysis of the same page (axe already in it) checks the page as it is now, every node of a violation named; a new page gets axe again', async ({ page }) => {
  await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>fine</h1></main></body></html>');
  expect((await axeOn(page).analyze()).violations).toEqual([]);

  await page.locator('main').evaluate((main) => main.insertAdjacentHTML('beforeend', '<img src="data:,"><img src="data:,"><button></button>'));
  const { violations } = await axeOn(page).analyze();
  expect(violations.map((v) => [v.id, v.nodes.length]).sort()).toEqual([
    ['button-name', 1],
    ['image-alt', 2],
  ]);

  // A page navigated to is a new window without axe: it is given axe again, and checked.
  await page.goto('data:text/html,<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>new</h1><img src="data:,"></main></body></html>');
  expect((await axeOn(page).analyze()).violations.map((v) => v.id)).toEqual(['image-alt']);
});
