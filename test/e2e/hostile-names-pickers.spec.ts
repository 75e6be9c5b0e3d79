/**
 * Issue 26 (branch cust16): the command palette and the DR view's customer picker with hostile customer names,
 * at 1,280 and 1,680 px. Two 500-character names that begin alike (the picker's "duplicates": the same first
 * 300 characters, one unbreakable word), a right-to-left name, and `constructor` / `__proto__`. Nothing runs past
 * the palette's list or the window, the whole name is the title of where it is cut and the palette's option the
 * keyboard is on shows it whole, a right-to-left name's beginning is what shows, and picking opens the right one.
 */
import type { Locator, Page } from '@playwright/test';
import { ALEX, expect, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });
test.use({ appOptions: { refreshReplicaAtSignIn: false } });

const PREFIX = `Contoso Pharmaceuticals Holdings ${'X'.repeat(300)}`;
const pad = (text: string) => `${text}${'Y'.repeat(500 - text.length)}`;
const EUROPE = pad(`${PREFIX} Europe `);
const AMERICAS = pad(`${PREFIX} Americas `);
/** Arabic words (no bidi controls: those are refused in a name), long enough to be cut. */
const RTL = `${'شركة النور للتجارة '.repeat(14)}`.trim();
const [FIRST_ID, SECOND_ID] = ALEX.customers.map((c) => c.cidExt) as [string, string];

async function noSidewaysScroll(page: Page, where: string): Promise<void> {
  const [scrollWidth, clientWidth] = await page.locator('body').evaluate((body) => [body.ownerDocument.scrollingElement!.scrollWidth, body.ownerDocument.scrollingElement!.clientWidth]);
  expect(scrollWidth, where).toBeLessThanOrEqual(clientWidth!);
}

/** Every palette option inside its list, the list not scrolling sideways, the dialog inside the window. */
async function paletteFits(palette: Locator, where: string): Promise<void> {
  const measured = await palette.getByRole('listbox').evaluate((list) => {
    const box = list.getBoundingClientRect();
    const overflowing = [...list.querySelectorAll('[role="option"] *')]
      .map((el) => ({ text: (el.textContent ?? '').slice(0, 40), right: el.getBoundingClientRect().right }))
      .filter((el) => el.right > box.right + 1);
    return { scrollWidth: list.scrollWidth, clientWidth: list.clientWidth, overflowing, dialogRight: list.closest('dialog')!.getBoundingClientRect().right, window: list.ownerDocument.documentElement.clientWidth };
  });
  expect.soft(measured.overflowing, where).toEqual([]);
  expect.soft(measured.scrollWidth, where).toBeLessThanOrEqual(measured.clientWidth);
  expect(measured.dialogRight, where).toBeLessThanOrEqual(measured.window);
}

/** Whether a cut box shows its text's first character (a right-to-left name cut at its beginning does not). */
async function showsItsBeginning(element: Locator): Promise<boolean> {
  return element.evaluate((el) => {
    const text = el.firstChild;
    if (!text || text.nodeType !== 3) return false;
    const range = el.ownerDocument.createRange();
    range.setStart(text, 0);
    range.setEnd(text, 1);
    const first = range.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return first.width > 0 && first.left >= box.left - 1 && first.right <= box.right + 1;
  });
}

/** Whether an element shows all of its text: neither cut sideways nor clipped below. */
async function showsWhole(element: Locator): Promise<boolean> {
  return element.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);
}

for (const width of [1280, 1680]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the palette and the DR picker with long, alike, right-to-left and prototype names', async ({ app, openSignedIn }) => {
      expect([EUROPE.length, AMERICAS.length]).toEqual([500, 500]);
      const page = await openSignedIn();
      const save = app.services.handlers['customers.save'];
      await save({ name: EUROPE, externalIds: [FIRST_ID], accounts: [], contact: '', notes: '' });
      await save({ name: AMERICAS, externalIds: [SECOND_ID], accounts: [], contact: '', notes: '' });
      await save({ name: RTL, externalIds: ['CUST-9001'], accounts: [], contact: '', notes: '' });
      await save({ name: 'constructor', externalIds: ['CUST-9002'], accounts: [], contact: '', notes: '' });
      await save({ name: '__proto__', externalIds: ['CUST-9003'], accounts: [], contact: '', notes: '' });

      // The DR view's picker: a whole name picks its customer's first id, the alike one included.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Disaster recovery', exact: true }).click();
      const field = page.getByLabel('Customer name or external customer id');
      const ownerIds = page.getByTestId('customer-ids');
      for (const [name, id] of [
        [AMERICAS, SECOND_ID],
        ['constructor', 'CUST-9002'],
        ['__proto__', 'CUST-9003'],
        [RTL, 'CUST-9001'],
        [EUROPE, FIRST_ID],
      ] as const) {
        await field.fill(name);
        await page.getByRole('button', { name: 'Show policies' }).click();
        await expect(ownerIds.getByRole('button', { name: id, pressed: true }), name.slice(0, 40)).toBeVisible();
        const shown = ownerIds.locator('.owner-name');
        await expect.soft(shown).toHaveAttribute('title', name);
        const box = await shown.boundingBox();
        expect(box!.x + box!.width, name.slice(0, 40)).toBeLessThanOrEqual(width);
        if (name === RTL) expect.soft(await showsItsBeginning(shown), 'the right-to-left name shows its beginning').toBe(true);
        await noSidewaysScroll(page, `DR view, ${name.slice(0, 40)}`);
      }
      const drRow = page.getByTestId('cyber-row').first();
      await expect(drRow).toBeVisible();
      const drId = (await drRow.getAttribute('data-cidr-id'))!;

      // The palette: the two alike names, each whole when the keyboard is on it; the second picked.
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Go to…' });
      const input = palette.getByRole('combobox');
      await input.fill(PREFIX.slice(0, 60));
      const options = palette.getByRole('option').filter({ has: page.locator('.kind-customer') });
      await expect(options).toHaveCount(2);
      await paletteFits(palette, 'two long customers');
      const labels = options.locator('.label');
      const titles = await labels.evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? el.textContent));
      expect(new Set(titles)).toEqual(new Set([EUROPE, AMERICAS]));
      await expect.soft(labels.first()).toHaveAttribute('title', titles[0]!);
      // The keyboard's option shows its whole name, the other is cut.
      await expect(options.first()).toHaveAttribute('aria-selected', 'true');
      expect.soft(await showsWhole(labels.first())).toBe(true);
      expect.soft(await showsWhole(labels.nth(1))).toBe(false);
      await input.press('ArrowDown');
      await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
      expect.soft(await showsWhole(labels.nth(1))).toBe(true);
      await paletteFits(palette, 'the second long customer active');
      await noSidewaysScroll(page, 'palette');
      await input.press('Enter');
      await expect(page.locator('#customer-title')).toHaveAttribute('title', titles[1]!);

      // A DR policy's option names its customer (500 characters) beside its id: cut inside the list (the
      // keyboard's option is "Open policy …", the id typed).
      await page.keyboard.press('Control+k');
      await input.fill(drId);
      const drOption = palette.getByRole('option').filter({ has: page.locator('.kind-dr-policy') });
      await expect(drOption).toHaveCount(1);
      await expect(drOption).toHaveAttribute('aria-selected', 'false');
      await expect.soft(drOption.locator('.detail')).toHaveAttribute('title', `${drId} · ${EUROPE}`);
      await paletteFits(palette, 'a DR policy of the long customer');

      // The right-to-left name shows its beginning, cut or whole; `constructor` is a name and opens its page.
      await input.fill('النور');
      const rtlOption = palette.getByRole('option').filter({ has: page.locator('.kind-customer') });
      await expect(rtlOption).toHaveCount(1);
      expect.soft(await showsItsBeginning(rtlOption.locator('.label'))).toBe(true);
      await paletteFits(palette, 'a right-to-left name');
      await input.fill('constructor');
      const ctorOption = palette.getByRole('option').filter({ has: page.locator('.kind-customer') });
      await expect(ctorOption).toHaveCount(1);
      await ctorOption.click();
      await expect(page.locator('#customer-title')).toHaveText('constructor');
      await noSidewaysScroll(page, 'constructor page');
    });
  });
}

test.describe('in a sentence', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a name cut in a toast keeps a flag and a joined emoji whole, and shows a stray joiner', async ({ openSignedIn }) => {
    const page = await openSignedIn();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Customers', exact: true }).click();
    const form = page.getByTestId('customer-form');
    // The 60th character is a flag (two code points) or a family (five, joined): kept whole, never a half of it.
    for (const [name, shown, id] of [
      [`${'A'.repeat(59)}🇩🇪 Handel`, `${'A'.repeat(59)}🇩🇪…`, 'CUST-7001'],
      // The joiners that spell the family are shown as the family (day17: they read "👨[U+200D]👩[U+200D]👧")...
      [`${'B'.repeat(59)}👨‍👩‍👧 Family`, `${'B'.repeat(59)}👨‍👩‍👧…`, 'CUST-7002'],
      // ...and a joiner that spells no emoji is still made visible (it would hide a difference between two names).
      [`Pay\u200Dpal Europe`, `Pay\\[U\\+200D\\]pal Europe`, 'CUST-7003'],
    ] as const) {
      await page.getByTestId('new-customer').click();
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('External customer ids').fill(id);
      await form.getByRole('button', { name: 'Save customer' }).click();
      await expect(form).toBeHidden();
      await expect(page.getByTestId('toast').filter({ hasText: 'is in your book' }).last()).toHaveText(new RegExp(`^\\s*${shown} is in your book`, 'u'));
    }
  });
});
