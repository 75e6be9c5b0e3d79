import { expect, it } from 'vitest';
import { activeMeaning, drActiveText, feesMeaning, feesValue, spendMeaning } from '../../../renderer/lib/customer-tiles.js';

const item = (cidrId: string, policyStatus: string) => ({ cidrId, policyName: cidrId, policyStatus, createdDate: '2026-01-01T00:00:00Z' });

it('counts the DR part from the lists shown, only once all are read, and says "at least" past a first page', () => {
  expect(drActiveText([])).toBeNull();
  const read = { value: { data: [item('dr_1', 'ACTIVE'), item('dr_2', 'EXPIRED')], total: 2 }, loading: false };
  // One list read, the other still reading: no count yet (a count that grew as lists arrived was day13's jump).
  expect(drActiveText([read, { value: null, loading: true }])).toBe('DR policies: reading their DR lists…');
  expect(drActiveText([read, { value: null, loading: false }])).toBe('DR policies: their DR lists could not be read.');
  expect(drActiveText([read, { value: { data: [item('dr_3', 'ACTIVE')], total: 1 }, loading: false }])).toBe('2 active DR policies in their DR lists below (not in the figure).');
  expect(drActiveText([{ value: { data: [item('dr_1', 'ACTIVE')], total: 150 }, loading: false }])).toBe('At least 1 active DR policy in their DR lists below (not in the figure).');
});

it('counts a list longer than its first page by its pages read, "at least" only when they could not all be read (cust16)', () => {
  const long = { value: { data: [item('dr_1', 'ACTIVE'), item('dr_2', 'EXPIRED')], total: 150 }, loading: false };
  const short = { value: { data: [item('dr_3', 'ACTIVE')], total: 1 }, loading: false };
  // Counted over its pages: 97 active in the long list (most beyond its first page) and 1 in the short one.
  expect(drActiveText([{ ...long, counted: { active: 97, complete: true } }, short])).toBe('98 active DR policies in their DR lists below (not in the figure).');
  // Still counting: no figure yet; a reload keeps the last count while it counts again.
  expect(drActiveText([{ ...long, counted: null, counting: true }, short])).toBe('DR policies: counting the active ones in their DR lists…');
  expect(drActiveText([{ ...long, counted: { active: 97, complete: true }, counting: true }, short])).toBe('98 active DR policies in their DR lists below (not in the figure).');
  // The count could not be read: what the first page shows, said as a floor.
  expect(drActiveText([{ ...long, counted: null }, short])).toBe('At least 2 active DR policies in their DR lists below (not in the figure).');
  // The bound cut the reading: what was read, as a floor.
  expect(drActiveText([{ ...long, counted: { active: 1500, complete: false } }, short])).toBe('At least 1,501 active DR policies in their DR lists below (not in the figure).');
  // A list whole on its first page counts its rows, whatever count came with it.
  expect(drActiveText([{ ...short, counted: { active: 40, complete: true } }])).toBe('1 active DR policy in their DR lists below (not in the figure).');
});

it('says how many of the active capacity policies run and how many launch later, and what the later ones will add a month', () => {
  const totals = { activeCapacity: 5, launchingLater: 2, monthlySpendLaunching: 1234.5 };
  expect(activeMeaning(totals, null)).toBe('Capacity policies: 3 running, 2 launching later.');
  expect(activeMeaning(totals, 'DR policies: reading their DR lists…')).toBe('Capacity policies: 3 running, 2 launching later. DR policies: reading their DR lists…');
  const amount = (value: number) => `USD ${value.toFixed(2)}`;
  expect(spendMeaning(totals, amount)).toBe(
    'What the 3 running policies cost a month, each price spread over its window. Not counted: 2 active policies launching later (USD 1234.50 a month once running).',
  );
  expect(spendMeaning({ activeCapacity: 1, launchingLater: 0, monthlySpendLaunching: 0 }, amount)).toBe('What the 1 running policy costs a month, each price spread over its window.');
});

it('shows the fees paid as one figure when card and bank agree, else both, lower first, and says why', () => {
  const amount = (value: number) => `USD ${value.toFixed(2)}`;
  const same = { processingFeesByCard: 5, processingFeesByBank: 5, cancellationFees: 10 };
  expect(feesValue(same, amount)).toBe('USD 15.00');
  expect(feesMeaning(same, amount)).toBe('USD 5.00 processing, USD 10.00 cancellation (as the service stated them).');
  const apart = { processingFeesByCard: 17.75, processingFeesByBank: 6.25, cancellationFees: 10 };
  expect(feesValue(apart, amount)).toBe('USD 16.25 – USD 27.75');
  expect(feesMeaning(apart, amount)).toBe(
    'Processing: USD 17.75 if they pay by card, USD 6.25 by bank transfer (the service states both, not which they use; say which in the book); USD 10.00 cancellation (as the service stated them).',
  );
});

it('shows the one processing fee the book says the customer pays (cust16)', () => {
  const amount = (value: number) => `USD ${value.toFixed(2)}`;
  const apart = { processingFeesByCard: 17.75, processingFeesByBank: 6.25, cancellationFees: 10 };
  expect(feesValue(apart, amount, 'card')).toBe('USD 27.75');
  expect(feesValue(apart, amount, 'bank')).toBe('USD 16.25');
  expect(feesMeaning(apart, amount, 'bank')).toBe('USD 6.25 processing (they pay by bank transfer, as your book says), USD 10.00 cancellation (as the service stated them).');
  expect(feesMeaning(apart, amount, 'card')).toContain('USD 17.75 processing (they pay by card');
  // Not known: both, as before, and where to say it.
  expect(feesValue(apart, amount)).toBe('USD 16.25 – USD 27.75');
  expect(feesMeaning(apart, amount)).toContain('say which in the book');
});

it('says "at least" for a list the copy answered that may be only part of the list (money18, issue 26)', () => {
  // An older copy's first page of 100 kept as the list: its total is what it keeps, so it is not "longer".
  const kept = { value: { data: [item('dr_1', 'ACTIVE'), item('dr_2', 'EXPIRED')], total: 2, keptListPartial: true }, loading: false };
  const short = { value: { data: [item('dr_3', 'ACTIVE')], total: 1 }, loading: false };
  expect(drActiveText([kept, short])).toBe('At least 2 active DR policies in their DR lists below (not in the figure).');
  expect(drActiveText([{ ...kept, value: { ...kept.value, keptListPartial: false } }, short])).toBe('2 active DR policies in their DR lists below (not in the figure).');
});
