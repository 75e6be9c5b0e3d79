import type { Locator, Page } from '@playwright/test';
import type { CyberListItem } from '../../shared/api/cyber.js';
import { MAIN_WINDOW_LIMITS } from '../../electron/services/desktop/app-identity.js';
import { ALEX, SandboxClient, showCustomer } from './cyber-support.js';
import { openAccountMenu } from './fixtures.js';
import { axeOn, COLOUR_RULES } from './support/axe.js';
import { expect, firstWithStatus, navTo, openDetail, openList, signInAs, test, testOnSharedApp } from './support/capacity.js';

/**
 * Issue 17, "Done when": axe-core finds nothing on every view and dialog, and
 * the layout holds, at 1280x800, at the smallest window the main process
 * allows, at 1024 px, at 200 % zoom and in the dark theme. One sign-in per
 * configuration.
 *
 * 200 % zoom is emulated as Chromium zooms: the window keeps its 1280x800
 * device pixels, so the page gets a 640x400 CSS-pixel viewport at a device
 * pixel ratio of 2. A deviceScaleFactor alone would keep the 1280 CSS-pixel
 * layout (only sharper), so media queries and wrapping would never be tested.
 */

interface Configuration {
  readonly name: string;
  readonly viewport: { width: number; height: number };
  readonly deviceScaleFactor: number;
  readonly colorScheme: 'light' | 'dark';
  /**
   * The axe rules run: every rule where the configuration changes what is rendered; only the rules whose outcome
   * the configuration can change where the page is the same DOM drawn otherwise (see SAME_DOM_AS_1280); none at
   * 1024 px, there for the layout alone (to keep the run short).
   */
  readonly axe: 'every rule' | readonly string[] | false;
}

/**
 * The rules an analysis of the same DOM can answer differently when only colours or sizes change: the colour
 * rules (COLOUR_RULES) and the ones that read the layout (contrast behind overlapping
 * boxes, a region that scrolls only when the window is small). Every other rule reads the DOM, its attributes and
 * what CSS hides: at the minimum window and in the dark theme those are the 1280x800 light page's, which is
 * analysed with every rule. Between 900 and 1280 px the only media query (max-width: 1100px) changes grid
 * columns, and no component reads the window's size but the status area (below 500 px high); the dark theme is
 * prefers-color-scheme in CSS alone. 200 % zoom (640x400 CSS px) does change what is rendered (max-width: 760px
 * stacks the search fields and cards; the status area's short form below 500 px): it keeps every rule.
 */
const SAME_DOM_AS_1280 = { dark: COLOUR_RULES, smaller: [...COLOUR_RULES, 'scrollable-region-focusable'] } as const;

const CONFIGURATIONS: readonly Configuration[] = [
  { name: '1280x800', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, colorScheme: 'light', axe: 'every rule' },
  {
    name: `minimum window ${MAIN_WINDOW_LIMITS.minWidth}x${MAIN_WINDOW_LIMITS.minHeight}`,
    viewport: { width: MAIN_WINDOW_LIMITS.minWidth, height: MAIN_WINDOW_LIMITS.minHeight },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    axe: SAME_DOM_AS_1280.smaller,
  },
  // Between the minimum and the width where the top bar fits on one row.
  { name: '1024x700', viewport: { width: 1024, height: 700 }, deviceScaleFactor: 1, colorScheme: 'light', axe: false },
  { name: '200 % zoom', viewport: { width: 640, height: 400 }, deviceScaleFactor: 2, colorScheme: 'light', axe: 'every rule' },
  { name: 'dark 1280x800', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, colorScheme: 'dark', axe: SAME_DOM_AS_1280.dark },
];

/** Everything found on the way; the test fails at the end with all of it, not at the first view. */
class Findings {
  readonly list: string[] = [];

  constructor(private readonly rules: Configuration['axe']) {}

  async axe(page: Page, where: string): Promise<void> {
    if (!this.rules) return;
    const builder = axeOn(page);
    if (this.rules !== 'every rule') builder.withRules([...this.rules]);
    const { violations } = await builder.analyze();
    for (const v of violations) {
      this.list.push(`${where}: axe ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
    }
  }

  /** The page itself never scrolls sideways (a wide table may scroll inside its own box). */
  async noSidewaysScroll(page: Page, where: string): Promise<void> {
    const overflow = await page.locator('html').evaluate((html) => {
      const root = html.ownerDocument.scrollingElement ?? html;
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
    if (overflow.scrollWidth > overflow.clientWidth) {
      this.list.push(`${where}: the page scrolls sideways (${overflow.scrollWidth} > ${overflow.clientWidth} px)`);
    }
  }

  /** The account menu's button is inside the viewport and is what a click at its centre reaches. */
  async accountMenuReachable(page: Page, where: string): Promise<void> {
    const result = await page.getByTestId('account-menu-button').evaluate((button) => {
      const window = button.ownerDocument.defaultView!;
      const document = button.ownerDocument;
      // The top bar scrolls with the page: look at it from the top-left corner.
      window.scrollTo(0, 0);
      const box = button.getBoundingClientRect();
      const inside = box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return { inside, hit: hit !== null && button.contains(hit), right: Math.round(box.right), width: window.innerWidth };
    });
    if (!result.inside) this.list.push(`${where}: the account menu button is outside the viewport (right edge ${result.right} of ${result.width} px)`);
    else if (!result.hit) this.list.push(`${where}: the account menu button is covered`);
  }

  async layout(page: Page, where: string): Promise<void> {
    await this.noSidewaysScroll(page, where);
    await this.accountMenuReachable(page, where);
  }

  add(problem: string): void {
    this.list.push(problem);
  }
}

/** Cells of the capacity grid whose text does not fit (cut off or ellipsed), by column header. */
async function truncatedCells(grid: Locator, headers: readonly string[]): Promise<string[]> {
  return grid.evaluate((element, wanted) => {
    // A sortable header's label is its SortButton's label; an abbreviated one is its visible (aria-hidden) text.
    const names = [...element.querySelectorAll('[role="columnheader"]')].map((h) => (h.querySelector('.sort-label, [aria-hidden="true"]') ?? h).textContent?.trim() ?? '');
    const problems: string[] = [];
    for (const header of wanted) {
      const column = names.indexOf(header);
      if (column < 0) {
        problems.push(`no column "${header}" among ${names.join(', ')}`);
        continue;
      }
      for (const row of element.querySelectorAll('[role="row"][data-index]')) {
        const cell = row.querySelectorAll('[role="gridcell"]')[column];
        if (cell && cell.scrollWidth > cell.clientWidth) problems.push(`"${header}" cut off: ${cell.textContent?.trim()} (${cell.scrollWidth} > ${cell.clientWidth} px)`);
      }
    }
    return problems;
  }, headers);
}

/** Data rows of the grid that are wholly visible, both inside its scroll box and inside the window. */
async function fullyVisibleRows(grid: Locator): Promise<number> {
  await grid.scrollIntoViewIfNeeded();
  return grid.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const window = element.ownerDocument.defaultView!;
    const head = element.querySelector('[role="rowgroup"]')?.getBoundingClientRect();
    const top = Math.max(box.top, head?.bottom ?? box.top, 0);
    // The status bar sticks to the window's bottom edge and covers what is under it.
    const statusBar = element.ownerDocument.querySelector('[data-testid="replica-status"]')?.getBoundingClientRect();
    const bottom = Math.min(box.bottom, window.innerHeight, statusBar?.top ?? window.innerHeight);
    return [...element.querySelectorAll('[role="row"][data-index]')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= top - 1 && r.bottom <= bottom + 1;
    }).length;
  });
}

/** Text that wraps onto more than one line (an id broken mid-word). */
async function wrappedTexts(elements: Locator): Promise<string[]> {
  return elements.evaluateAll((nodes) =>
    nodes
      .filter((node) => {
        const range = node.ownerDocument.createRange();
        range.selectNodeContents(node);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        return lines.size > 1;
      })
      .map((node) => node.textContent?.trim() ?? ''),
  );
}

async function closeWithEscape(page: Page, dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

for (const configuration of CONFIGURATIONS) {
  test.describe(configuration.name, () => {
    test.use({ viewport: configuration.viewport, deviceScaleFactor: configuration.deviceScaleFactor, colorScheme: configuration.colorScheme });
    test.describe.configure({ timeout: 180_000 });

    test(`every view and dialog ${configuration.axe === 'every rule' ? 'passes axe and ' : configuration.axe ? `passes axe’s ${configuration.axe.join(', ')} and ` : ''}keeps its layout at ${configuration.name}`, async ({ openApp, app }) => {
      const found = new Findings(configuration.axe);
      const at = (what: string) => `${what} @ ${configuration.name}`;
      const zoomed = configuration.viewport.width < MAIN_WINDOW_LIMITS.minWidth;
      const customer = ALEX.customers[0]!.cidExt;
      // A DR policy on the list's first page that can still be terminated (the dialog is offered).
      const firstPage = await (await SandboxClient.signIn(app)).call<{ data: CyberListItem[] }>('listCyberPolicies', { params: { cid_ext: customer } });
      const drPolicy = firstPage.body.data.find((item) => !item.terminationTriggered);
      expect(drPolicy, 'an untouched DR policy on the first page').toBeDefined();

      const page = await openApp();
      await found.axe(page, at('sign-in'));
      await found.noSidewaysScroll(page, at('sign-in'));

      await signInAs(page);
      const active = await firstWithStatus(app, 'ACTIVE', (p) => p.policyInstance.instanceType !== 'm4.large');
      const ready = await firstWithStatus(app, 'READY_FOR_PURCHASE');
      await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
      await found.axe(page, at('overview'));
      await found.layout(page, at('overview'));
      // Issue 29: a label on two lines reads as two items; the navigation takes its own row instead.
      for (const text of await wrappedTexts(page.getByRole('navigation', { name: 'Main' }).getByRole('button'))) found.add(at(`navigation label on two lines: ${text}`));
      // A settled update state ("No auto-update") is told in Preferences, not in the header.
      if ((await page.getByRole('banner').getByText('No auto-update').count()) > 0) found.add(at('"No auto-update" in the header'));

      await openAccountMenu(page);
      await expect(page.getByTestId('open-preferences')).toBeVisible();
      await found.axe(page, at('account menu'));
      await found.layout(page, at('account menu open'));
      await page.getByTestId('open-preferences').click();
      const preferences = page.getByRole('dialog', { name: 'Preferences' });
      await expect(preferences).toBeVisible();
      await found.axe(page, at('preferences dialog'));
      await closeWithEscape(page, preferences);

      await openAccountMenu(page);
      await page.getByTestId('sign-out').click();
      const signOut = page.getByTestId('sign-out-dialog');
      await expect(signOut).toBeVisible();
      await found.axe(page, at('sign-out dialog'));
      await signOut.getByRole('button', { name: 'Cancel' }).click();
      await expect(signOut).toBeHidden();

      await navTo(page, 'Linked accounts');
      await expect(page.getByTestId('account-row').first()).toBeVisible();
      await found.axe(page, at('linked accounts'));
      await found.layout(page, at('linked accounts'));

      await openList(page);
      const grid = page.getByTestId('capacity-table');
      await expect(grid.locator('[role="row"][data-index]').first()).toContainText(/\S/);
      await found.axe(page, at('capacity list'));
      await found.layout(page, at('capacity list'));
      if (configuration.viewport.width >= 1280) {
        for (const problem of await truncatedCells(grid, ['Instances', 'Launch', 'End', 'Status'])) found.add(at(`capacity list: ${problem}`));
      }
      if (zoomed) {
        const rows = await fullyVisibleRows(grid);
        if (rows <= 2) found.add(at(`capacity list shows ${rows} whole rows`));
      }
      // With a selection: the checkbox column, selected rows and the bulk actions' bar.
      await grid.focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('Shift+ArrowDown');
      await expect(page.getByRole('toolbar', { name: 'Selected policies' })).toContainText('2 policies selected');
      await found.axe(page, at('capacity list with a selection'));
      await found.layout(page, at('capacity list with a selection'));
      await page.getByRole('toolbar', { name: 'Selected policies' }).getByRole('button', { name: 'Clear selection' }).click();

      await openDetail(page, active.cidrId);
      await expect(page.getByTestId('group-instances')).toBeVisible();
      await found.axe(page, at('capacity detail'));
      await found.layout(page, at('capacity detail'));
      if (zoomed) {
        const lefts = await page.locator('[data-testid="group-policy"], [data-testid="group-dates"], [data-testid="group-region"]').evaluateAll((cards) =>
          cards.map((card) => Math.round(card.getBoundingClientRect().left)),
        );
        if (new Set(lefts).size !== 1) found.add(at(`detail cards side by side (left edges ${lefts.join(', ')})`));
        for (const text of await wrappedTexts(page.locator('[data-testid="detail-cidr"], .info-card dd.mono'))) found.add(at(`id broken over lines: ${text}`));
      }

      await page.getByRole('button', { name: 'Edit configuration' }).click();
      const configure = page.getByTestId('configure-form');
      await expect(configure).toBeVisible();
      await found.axe(page, at('configure form'));
      await found.layout(page, at('configure form'));
      await configure.getByRole('button', { name: 'Close' }).click();
      await expect(configure).toBeHidden();

      await page.getByTestId('policy-actions').getByRole('button', { name: 'Cancel policy…' }).click();
      const cancel = page.getByRole('alertdialog', { name: `Cancel ${active.policyName}?` });
      await expect(cancel).toBeVisible();
      await found.axe(page, at('cancel confirmation'));
      await closeWithEscape(page, cancel);

      await navTo(page, 'Search & purchase');
      await expect(page.getByTestId('ready-policy').first()).toBeVisible();
      await found.axe(page, at('search & purchase'));
      await found.layout(page, at('search & purchase'));
      const form = page.getByTestId('search-form');
      await form.getByLabel('Instance type').fill(ready.policyInstance.instanceType);
      await form.getByLabel('Platform').fill(ready.policyInstance.platformCode);
      await form.getByLabel('Availability zone').fill(ready.cspRegion.availabilityZoneId);
      await form.getByLabel('Start date').fill('2027-03-01');
      await form.getByLabel('End date').fill('2027-03-20');
      if (zoomed) {
        // Issue 29: three columns at 200 % clipped the values; the fields stack instead.
        const lefts = await form.locator('#search-instanceType, #search-platform, #search-availabilityZone').evaluateAll((inputs) =>
          inputs.map((input) => Math.round(input.getBoundingClientRect().left)),
        );
        if (new Set(lefts).size !== 1) found.add(at(`search fields side by side (left edges ${lefts.join(', ')})`));
      }
      await form.getByRole('button', { name: 'Search availability' }).click();
      await expect(page.getByTestId('offering').first()).toBeVisible();
      await found.axe(page, at('search results'));
      await found.layout(page, at('search results'));
      await page.getByTestId('ready-policy').first().getByRole('button', { name: /^Purchase / }).click();
      const purchase = page.getByRole('alertdialog', { name: 'Purchase this capacity?' });
      await expect(purchase).toBeVisible();
      await found.axe(page, at('purchase confirmation'));
      await closeWithEscape(page, purchase);

      await showCustomer(page, customer);
      await expect(page.getByTestId('cyber-row').first()).toBeVisible();
      await found.axe(page, at('DR list'));
      await found.layout(page, at('DR list'));
      await page.locator(`[data-cidr-id="${drPolicy!.cidrId}"]`).getByRole('button', { name: drPolicy!.policyName }).click();
      await expect(page.getByRole('heading', { name: drPolicy!.policyName, level: 1 })).toBeVisible();
      await found.axe(page, at('DR detail'));
      await found.layout(page, at('DR detail'));
      await page.getByTestId('terminate').click();
      const terminate = page.getByTestId('terminate-dialog');
      await expect(terminate).toBeVisible();
      await found.axe(page, at('terminate confirmation'));
      await closeWithEscape(page, terminate);

      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Go to…' });
      await palette.getByRole('combobox').fill(active.policyName.slice(0, 4));
      await expect(palette.getByRole('option').first()).toBeVisible();
      await found.axe(page, at('command palette'));
      await closeWithEscape(page, palette);

      expect(found.list).toEqual([]);
    });
  });
}

testOnSharedApp('a required field says so by its attribute; its "*" is not part of its name (issue 17 item 6)', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await navTo(page, 'Search & purchase');
  const form = page.getByTestId('search-form');
  const required = { instanceType: 'Instance type', platform: 'Platform', availabilityZone: 'Availability zone', startDate: 'Start date', endDate: 'End date' };
  for (const [id, name] of Object.entries(required)) {
    // Sighted users see the marker…
    await expect(form.locator(`label[for="search-${id}"]`)).toHaveText(new RegExp(`^\\s*${name}\\s*\\*\\s*$`));
    // …assistive technology hears the name and "required", never "star".
    const control = form.locator(`#search-${id}`);
    await expect(control).toHaveAccessibleName(name);
    await expect(control).toHaveAttribute('aria-required', 'true');
  }
});
