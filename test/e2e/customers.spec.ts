import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { CustomerBook } from '../../shared/ipc/customers.js';
import { showCustomer } from './cyber-support.js';
import { analyze, axeOn } from './support/axe.js';
import { holdCalls } from './support/held-call.js';
import { expect, test, listFromOtherWindow, otherWindow } from './support/capacity.js';

/**
 * Issue 26: the account manager's book of business. Customers are created
 * from what the app proposes, matched to their policies, and found wherever
 * a customer is meant; the book goes out and comes back as CSV.
 */
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const go = (page: Page, label: string) => nav(page).getByRole('button', { name: label, exact: true }).click();

async function replicaReady(page: Page): Promise<void> {
  await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 30_000 });
}

/** Waits for `count` animation frames to pass: what a page draws "a frame later" is drawn by then. */
async function framesPass(page: Page, count: number): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    let left = ${count};
    const tick = () => (--left <= 0 ? resolve(undefined) : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  })`);
}

async function saveForm(page: Page, name: string): Promise<void> {
  const form = page.getByTestId('customer-form');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Save customer' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId('customer-book').getByRole('button', { name, exact: true })).toBeVisible();
}

test('from proposals to customer pages, the list, the DR view and the palette; the book out and back as CSV', async ({ app, openSignedIn }) => {
  // One person's whole first session with the book: many steps, each waited for.
  test.setTimeout(120_000);
  const page = await openSignedIn();
  await replicaReady(page);
  // The DR ids used so far are what the app proposes from.
  await showCustomer(page, 'CUST-1002');
  await expect(page.getByTestId('cyber-row').first()).toBeVisible();
  await showCustomer(page, 'CUST-1001');
  await expect(page.getByTestId('cyber-row').first()).toBeVisible();

  await go(page, 'Customers');
  const proposals = page.getByTestId('proposals');
  await expect(proposals.getByText('CUST-1001', { exact: true })).toBeVisible();
  // Two suggestions that are one customer: merged, then renamed before saving.
  await proposals.getByRole('checkbox', { name: /^CUST-1001/ }).check();
  await proposals.getByRole('checkbox', { name: /^morgan-prod/ }).check();
  await page.getByTestId('merge-proposals').click();
  await expect(page.getByTestId('customer-form').getByLabel('Linked accounts')).toHaveValue('morgan-prod');
  await saveForm(page, 'Northwind');
  // One suggestion confirmed under another name.
  await proposals.getByRole('button', { name: 'Add CUST-1002 as a customer' }).click();
  await saveForm(page, 'Contoso');
  await expect(proposals.getByText('CUST-1001', { exact: true })).toBeHidden();
  // A duplicate name is refused at its field, and what was typed stays.
  await page.getByTestId('new-customer').click();
  const form = page.getByTestId('customer-form');
  await form.getByLabel('External customer ids').fill('CUST-7777');
  await form.getByLabel('Name').fill('NORTHWIND');
  await form.getByRole('button', { name: 'Save customer' }).click();
  await expect(form.getByText('A customer named “Northwind” is in the book already')).toBeVisible();
  await expect(form.getByLabel('External customer ids')).toHaveValue('CUST-7777');
  await form.getByRole('button', { name: 'Cancel' }).click();

  const book = (await otherWindow(app)['customers.list'](undefined)) as CustomerBook;
  const northwind = book.customers.find((c) => c.name === 'Northwind')!;
  const contoso = book.customers.find((c) => c.name === 'Contoso')!;

  // The capacity list: unassigned policies say so, and their account is one choice from a customer.
  await go(page, 'Capacity policies');
  await page.getByTestId('customer-filter').selectOption({ label: 'No customer (unassigned)' });
  const assign = page.getByTestId('assign-accounts');
  // A choice holds every customer once it is the one focused (as by Tab or a press).
  const morgan = assign.getByLabel('Customer for morgan-analytics');
  await morgan.focus();
  await morgan.selectOption({ label: 'Contoso' });
  await assign.getByRole('button', { name: 'Assign morgan-analytics' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'morgan-analytics now belongs to Contoso' })).toBeVisible();
  await page.getByTestId('customer-filter').selectOption({ label: 'Contoso' });
  const contosoTotal = (await listFromOtherWindow(app, { customer: contoso.key, limit: 1 })).total;
  expect(contosoTotal).toBeGreaterThan(0);
  await expect(page.getByTestId('list-summary')).toContainText(`${contosoTotal.toLocaleString('en-US')} `);
  const cells = page.getByTestId('capacity-table').locator('[role="row"][data-index]').filter({ hasText: 'Contoso' });
  await expect(cells.first()).toBeVisible();

  // The customer page: its totals are those of the policies it lists (the copy, at once, with its age).
  await go(page, 'Customers');
  // One read of the page, started as its route is entered (the view takes it), and one of the rows it lists.
  const pageReads: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/ipc/customers.page' || path === '/ipc/customers.policies') pageReads.push(path);
  });
  await page.getByTestId('customer-book').getByRole('button', { name: 'Northwind', exact: true }).click();
  const customerPage = page.getByTestId('customer-page');
  await expect(customerPage.getByRole('heading', { name: 'Northwind', level: 1 })).toBeVisible();
  await expect(customerPage.getByTestId('source-line').first()).toContainText('local copy');
  const theirs = await listFromOtherWindow(app, { customer: northwind.key, limit: 500 });
  const active = theirs.rows.filter((p) => p.policyStatus === 'ACTIVE');
  expect(theirs.rows.every((p) => p.cspAccountName === 'morgan-prod')).toBe(true);
  await expect(customerPage.getByTestId('capacity-count')).toHaveText(theirs.total.toLocaleString('en-US'));
  await expect(customerPage.getByTestId('total-active').getByTestId('figure-value')).toHaveText(active.length.toLocaleString('en-US'));
  const shown = customerPage.getByTestId('customer-capacity').locator('tbody tr');
  await expect(shown).toHaveCount(Math.min(200, theirs.total));
  const shownActive = await customerPage.getByTestId('customer-capacity').locator('tbody tr[data-status="ACTIVE"]').count();
  if (theirs.total <= 200) expect(shownActive).toBe(active.length);
  expect(pageReads).toEqual(['/ipc/customers.page', '/ipc/customers.policies']);
  // Every id's DR policies, live.
  await expect(customerPage.getByTestId('customer-dr')).toHaveCount(1);
  await expect(customerPage.getByTestId('customer-dr').getByRole('button').first()).toBeVisible();
  // Their newest not read on a refresh: the page's own first rows beside its figures, the failure said, a retry.
  await page.route('**/ipc/customers.policies', (route) => route.fulfill({ json: { ok: false, error: { kind: 'internal', message: 'The local copy could not be read.' } } }));
  await customerPage.getByRole('button', { name: 'Refresh' }).click();
  const policiesError = customerPage.getByTestId('customer-policies-error');
  await expect(policiesError).toContainText('The newest of their policies could not be read');
  await expect(shown).toHaveCount(Math.min(30, theirs.total));
  await page.unroute('**/ipc/customers.policies');
  await policiesError.getByRole('button', { name: 'Try again' }).click();
  await expect(shown).toHaveCount(Math.min(200, theirs.total));
  await expect(policiesError).toHaveCount(0);

  // The DR view by the customer's name.
  await go(page, 'Disaster recovery');
  await page.getByLabel('External customer id').fill('Northwind');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('customer-ids')).toContainText('Northwind');
  await expect(page.getByTestId('customer-ids').getByRole('button', { name: 'CUST-1001' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('cyber-row').first()).toBeVisible();

  // The palette finds a customer by name.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to…' });
  await palette.getByRole('combobox').fill('contos');
  // The customer comes first, before the policies and the DR policies whose detail names their customer.
  await expect(palette.getByRole('option').first()).toHaveAccessibleName(/^Customer Contoso\b/);
  await palette.getByRole('combobox').press('Enter');
  await expect(page.getByTestId('customer-page').getByRole('heading', { name: 'Contoso', level: 1 })).toBeVisible();

  // The book out as CSV, one customer removed, the book back in: as it was.
  await go(page, 'Customers');
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-book').click();
  const file = (await (await downloading).path()) as string;
  const csv = await readFile(file, 'utf8');
  expect(csv).toContain('Northwind');
  await page.getByRole('button', { name: 'Remove Contoso' }).click();
  await page.getByTestId('remove-customer').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('customer-book').getByRole('button', { name: 'Contoso', exact: true })).toBeHidden();
  await page.getByTestId('import-file').setInputFiles(file);
  await expect(page.getByTestId('toast').filter({ hasText: 'Imported' })).toContainText('1 added');
  await expect(page.getByTestId('customer-book').getByRole('button', { name: 'Contoso', exact: true })).toBeVisible();
  const after = (await otherWindow(app)['customers.list'](undefined)) as CustomerBook;
  expect(after.customers.map((c) => [c.name, c.externalIds, c.accounts]).sort()).toEqual(book.customers.map((c) => [c.name, c.externalIds, c.name === 'Contoso' ? ['morgan-analytics'] : c.accounts]).sort());
});

test('hostile names are held as they are and shown without reordering the page', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await go(page, 'Customers');
  for (const name of ['__proto__', 'constructor', 'N'.repeat(500)]) {
    await page.getByTestId('new-customer').click();
    const form = page.getByTestId('customer-form');
    await form.getByLabel('External customer ids').fill(`ID-${name.length}-${name.slice(0, 3)}`);
    await saveForm(page, name);
  }
  // A name with a hidden direction mark is refused with a message that says why.
  await page.getByTestId('new-customer').click();
  const form = page.getByTestId('customer-form');
  await form.getByLabel('Name').fill('abc\u202Eevil');
  await form.getByLabel('External customer ids').fill('ID-X');
  await form.getByRole('button', { name: 'Save customer' }).click();
  await expect(form.getByText(/hidden text-direction character/)).toBeVisible();
  await expect(page.getByTestId('customer-book').locator('tbody tr')).toHaveCount(3);
});

test('"No customer" asks for its accounts to assign only once its rows are on screen, and each choice holds the book only when focused', async ({ app, openSignedIn }) => {
  const page = await openSignedIn();
  await replicaReady(page);
  // A book of a few customers (a choice of each in every account's select), most accounts still of none.
  for (const name of ['Northwind', '__proto__', 'constructor']) await otherWindow(app)['customers.save']({ name, externalIds: [`ID-${name}`], accounts: [], contact: '', notes: '' });
  await go(page, 'Capacity policies');
  await expect(page.getByTestId('capacity-table')).toHaveAttribute('aria-busy', 'false');
  // The list's answer for no customer is held: the proposals (worked out over the book and every linked account) must
  // not be asked beside it, nor the section drawn, until its rows are painted.
  const asked: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/ipc/customers.propose' || path === '/ipc/capacity.list') asked.push(path);
  });
  const list = await holdCalls(page, 'capacity.list');
  await page.getByTestId('customer-filter').selectOption({ label: 'No customer (unassigned)' });
  await expect.poll(() => list.held()).toBe(true);
  await expect(page.getByTestId('capacity-table')).toHaveAttribute('aria-busy', 'true');
  // The page has had every chance to ask: a frame and the list's own request are past.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))');
  expect(asked).toEqual(['/ipc/capacity.list']);
  await expect(page.getByTestId('assign-accounts')).toHaveCount(0);
  list.release();
  await expect(page.getByTestId('capacity-table')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('assign-accounts')).toBeVisible();
  const choices = page.getByTestId('assign-choice');
  await expect(choices.first()).toBeVisible();
  const selects = await choices.count();
  expect(selects).toBeGreaterThan(1);
  expect(asked.slice(0, 2)).toEqual(['/ipc/capacity.list', '/ipc/customers.propose']);
  // Each choice holds its prompt alone until it is the one focused (frames enough for anything drawn later to be there).
  await framesPass(page, selects + 2);
  for (let at = 0; at < selects; at += 1) await expect(choices.nth(at).locator('option')).toHaveCount(1);
  // By keys alone: focus the first choice, choose with the arrow keys, Tab to its Assign, then on to the next choice.
  await choices.first().focus();
  await expect(choices.first().locator('option')).toHaveCount(4);
  await page.keyboard.press('ArrowDown');
  const picked = (await choices.first().locator('option:checked').textContent()) ?? '';
  expect(['Northwind', '__proto__', 'constructor']).toContain(picked);
  const firstAccount = ((await page.getByTestId('assign-accounts').locator('li .account').first().textContent()) ?? '').trim();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: `Assign ${firstAccount}` })).toBeFocused();
  await expect(page.getByRole('button', { name: `Assign ${firstAccount}` })).toBeEnabled();
  // Left, the choice keeps the customer chosen (its one option beside the prompt); the next choice holds the book.
  await expect(choices.first().locator('option')).toHaveCount(2);
  await expect(choices.first().locator('option:checked')).toHaveText(picked);
  await page.keyboard.press('Tab');
  await expect(choices.nth(1)).toBeFocused();
  await expect(choices.nth(1).locator('option')).toHaveCount(4);
  await expect(choices.first().locator('option:checked')).toHaveText(picked);
  // Each choice still named by its account, one open and one chosen among them.
  expect((await analyze(axeOn(page).include('[data-testid="assign-accounts"]'))).violations).toEqual([]);
});

test('"No customer" costs a few elements an account over a book of 2,000: only the choice opened holds every customer', async ({ app, openSignedIn }) => {
  test.setTimeout(90_000);
  const page = await openSignedIn();
  await replicaReady(page);
  const long = 'L'.repeat(500);
  const names = [...Array.from({ length: 1998 }, (_, at) => `Customer ${String(at).padStart(4, '0')}`), '__proto__', long];
  const csv = ['Name,External customer ids', ...names.map((name, at) => `${name},ID-${at}`)].join('\n');
  expect(await otherWindow(app)['customers.import']({ csv })).toMatchObject({ added: 2000, rejected: [] });
  await go(page, 'Capacity policies');
  // The list's first answer with a book of 2,000 just imported: a wait for that condition, not a budget. Its default
  // 7 s ran out at load 42 (suite18's full run of main, the table still busy); the element counts below are the test.
  await expect(page.getByTestId('capacity-table')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(page.getByTestId('customer-filter').locator('option')).toHaveCount(2002);
  await page.getByTestId('customer-filter').selectOption({ label: 'No customer (unassigned)' });
  const section = page.getByTestId('assign-accounts');
  const choices = section.getByTestId('assign-choice');
  await expect(choices.first()).toBeVisible();
  const selects = await choices.count();
  expect(selects).toBeGreaterThan(1);
  // Each account a prompt, now and frames later: not a select of 2,001 options each, drawn on the way in and torn
  // down on the way out.
  await framesPass(page, selects + 2);
  expect(await section.locator('option').count()).toBeLessThan(50);
  const first = choices.first();
  await first.focus();
  await expect(first.locator('option')).toHaveCount(2001);
  await expect(first.locator('option').filter({ hasText: /^__proto__$/ })).toHaveCount(1);
  // A 500-character name is shown cut, whole names being the customer page's.
  await expect(first.locator('option').filter({ hasText: `${'L'.repeat(80)}…` })).toHaveCount(1);
  await first.selectOption({ label: '__proto__' });
  await page.keyboard.press('Tab');
  await expect(first.locator('option:checked')).toHaveText('__proto__');
  expect(await section.locator('option').count()).toBeLessThan(50);
  await page.getByTestId('customer-filter').selectOption({ label: 'All customers' });
  await expect(section).toHaveCount(0);
  await expect(page.getByTestId('capacity-table')).toHaveAttribute('aria-busy', 'false');
});
