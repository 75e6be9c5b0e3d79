/**
 * Issue 26 (branch cust16, item 5): customers ask for "8 x g5.2xlarge" and account managers say "eight g5.2xlarge".
 * Typed in the capacity list's search, a count and a type find the policies of exactly that many instances of that
 * type (with "Ready for purchase", what can be sold to them); the search box's help names the syntax, and the list
 * says how it read it. At 1,280 and 1,680 px.
 */
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { SandboxClient } from './cyber-support.js';
import { expect, openList, signInAs, test } from './support/capacity.js';

test.describe.configure({ timeout: 120_000 });

const WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

for (const width of [1280, 1680]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('"N x type" finds the ready policies of that count and type', async ({ app, openApp }) => {
      const sandbox = await SandboxClient.signIn(app);
      const all = await sandbox.allCapacities();
      const ready = all.filter((p) => p.policyStatus === 'READY_FOR_PURCHASE');
      // A count and type of a ready policy whose type is also sold in other counts: the count matters.
      const pick = ready.find((p) => all.some((q) => q.policyInstance.instanceType === p.policyInstance.instanceType && q.policyInstance.qty !== p.policyInstance.qty)) as CapacityPolicy;
      const { qty, instanceType } = pick.policyInstance;
      const expected = ready.filter((p) => p.policyInstance.qty === qty && p.policyInstance.instanceType === instanceType);
      const ofType = ready.filter((p) => p.policyInstance.instanceType === instanceType);

      const page = await openApp();
      await signInAs(page);
      await expect(page.getByTestId('replica-age')).toContainText('Local copy of', { timeout: 60_000 });
      await openList(page);
      await page.getByTestId('status-filter').getByRole('radio', { name: 'Ready for purchase' }).click();
      const search = page.getByTestId('list-search');
      await expect(search).toBeEnabled();
      // The syntax is said where the search is.
      await expect(search).toHaveAttribute('placeholder', /8 x g5\.2xlarge/);
      await expect(search).toHaveAttribute('title', /8 x g5\.2xlarge, 8x g5\.2xlarge, eight g5\.2xlarge/);

      const summary = page.getByTestId('list-summary');
      const forms = [`${qty} x ${instanceType}`, `${qty}x ${instanceType}`, `${qty} ${instanceType}`, ...(qty <= WORDS.length ? [`${WORDS[qty - 1]} ${instanceType}`] : [])];
      for (const typed of forms) {
        await search.fill(typed);
        await expect(summary, typed).toContainText(`of ${qty} × ${instanceType}`);
        await expect(summary.locator('strong'), typed).toHaveText(expected.length.toLocaleString('en-US'));
        await expect(summary).not.toContainText('loading rows');
        for (const policy of expected.slice(0, 5)) await expect(page.getByTestId('capacity-list-view')).toContainText(policy.cidrId);
      }
      // The type alone is a plain search: every count of it.
      await search.fill(instanceType);
      await expect(summary).toContainText(`matching “${instanceType}”`);
      await expect(summary.locator('strong')).toHaveText(ofType.length.toLocaleString('en-US'));
      expect(ofType.length).toBeGreaterThanOrEqual(expected.length);

      const [scrollWidth, clientWidth] = await page.locator('body').evaluate((body) => [body.ownerDocument.scrollingElement!.scrollWidth, body.ownerDocument.scrollingElement!.clientWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth!);
    });
  });
}
