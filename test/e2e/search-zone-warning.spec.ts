import { expect, navTo, testOnSharedApp } from './support/capacity.js';

/**
 * Branch day13: "do you have 8 x g5.2xlarge in Frankfurt?" typed as the customer said it. The service takes any
 * zone text and answers "Not available" for one it does not know, which reads as an answer about capacity: the
 * field warns (without blocking) while what is typed is not a zone ID.
 */
testOnSharedApp('a zone typed as a city or a region is warned about at its field; a zone ID is not', async ({ openSignedIn }) => {
  const page = await openSignedIn();
  await navTo(page, 'Search & purchase');
  const zone = page.getByRole('combobox', { name: 'Availability zone' });
  await zone.fill('Frankfurt');
  await expect(page.getByTestId('field-warning')).toHaveText('“Frankfurt” is not a zone ID (such as euc1-az1): for a zone it does not know, the service answers “Not available”.');
  await expect(zone).toHaveAccessibleDescription(/not a zone ID/);
  await zone.fill('eu-central-1');
  await expect(page.getByTestId('field-warning')).toContainText('“eu-central-1” is not a zone ID');
  await zone.fill('euc1-az1');
  await expect(page.getByTestId('field-warning')).toHaveCount(0);
});
