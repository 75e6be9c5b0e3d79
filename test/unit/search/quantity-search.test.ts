import { expect, it } from 'vitest';
import { parseQuantitySearch } from '../../../shared/search/quantity-search.js';

it('reads a count and an instance type as customers and account managers write them (cust16)', () => {
  const eight = { qty: 8, instanceType: 'g5.2xlarge' };
  for (const text of ['8 x g5.2xlarge', '8x g5.2xlarge', '8 X g5.2xlarge', '8 × g5.2xlarge', '8*g5.2xlarge', '8 g5.2xlarge', ' eight g5.2xlarge ', 'Eight x g5.2xlarge', '8xg5.2xlarge']) {
    expect(parseQuantitySearch(text), text).toEqual(eight);
  }
  expect(parseQuantitySearch('2 x Standard_D2s_v3')).toEqual({ qty: 2, instanceType: 'Standard_D2s_v3' });
  expect(parseQuantitySearch('16 n2-standard-8')).toEqual({ qty: 16, instanceType: 'n2-standard-8' });
  expect(parseQuantitySearch('twenty m5.large')).toEqual({ qty: 20, instanceType: 'm5.large' });
});

it('leaves other text a plain search', () => {
  for (const text of ['g5.2xlarge', '2 web tier', 'web tier 2', '8', '8 x', 'sc_1000042', '0 x g5.2xlarge', '8xlarge', 'eight', 'Northwind 8 g5.2xlarge', '8 x g5.2xlarge in Frankfurt']) {
    expect(parseQuantitySearch(text), text).toBeNull();
  }
});
