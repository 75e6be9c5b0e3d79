import { expect, it } from 'vitest';
import { FilterForm, hasFilters, NO_FILTERS, queryFilters } from '../../../renderer/lib/capacity-filters.js';

it('asks for the policies running at the instant given when "Running now" is on, and reads views saved before it (cust16)', () => {
  const at = Date.UTC(2026, 10, 28, 3, 0);
  expect(queryFilters({ ...NO_FILTERS, running: 'running' }, at)).toEqual({ ok: true, filters: { runningAtMs: at } });
  expect(queryFilters(NO_FILTERS, at)).toEqual({ ok: true, filters: undefined });
  expect(hasFilters({ ...NO_FILTERS, running: 'running' })).toBe(true);
  expect(hasFilters(NO_FILTERS)).toBe(false);
  // A view saved before the field existed reads as not filtered by it.
  const older = FilterForm().parse({ account: 'acme', instanceType: '', availabilityZone: '', launchFrom: '', launchTo: '' });
  expect(older.running).toBe('');
  expect(queryFilters(older, at)).toEqual({ ok: true, filters: { account: 'acme' } });
});
