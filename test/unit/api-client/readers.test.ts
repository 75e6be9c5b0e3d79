import { describe, expect, it } from 'vitest';
import { CapacityView } from '../../../shared/api/capacity.js';
import { driftFindings, leftover, unknownFields } from '../../../shared/api/drift.js';
import { CapacityRow, READERS, completeCapacityView } from '../../../shared/api/readers.js';
import { readItems, withAliases } from '../../../shared/api/tolerant.js';

const context = { params: {}, query: {} };

describe('readItems', () => {
  it('keeps each item that reads, and counts each that does not, by position', () => {
    const read = readItems([{ cidrId: 'a', policyName: 1 }, {}, { cidrId: 'b' }, 'nonsense'], CapacityRow);
    expect(read.items).toEqual([{ cidrId: 'a' }, { cidrId: 'b' }]);
    expect(read.skipped).toEqual([
      { index: 1, problems: ['cidrId is missing'] },
      { index: 3, problems: ['the item is not an object'] },
    ]);
  });

  it('reads a nested group in part: the fields that are there', () => {
    const read = readItems([{ cidrId: 'a', pricing: { ourPrice: 5, savings: 'many' }, cspRegion: 'eu' }], CapacityRow);
    expect(read.items[0]).toEqual({ cidrId: 'a', pricing: { ourPrice: 5 } });
  });
});

describe('withAliases', () => {
  it('renames an alias only when the project name is absent', () => {
    expect(withAliases({ name: 'x' }, { policyName: ['name'] })).toEqual({ policyName: 'x' });
    expect(withAliases({ name: 'x', policyName: 'y' }, { policyName: ['name'] })).toEqual({ name: 'x', policyName: 'y' });
    expect(withAliases(['x'], { policyName: ['name'] })).toEqual(['x']);
  });
});

describe('the page reader', () => {
  it('falls back to the request for an envelope without paging fields', () => {
    const page = READERS.listCapacities.read({ data: [{ cidrId: 'a' }] }, { params: {}, query: { page: 3, pageSize: 10 } });
    expect(page).toMatchObject({ page: 3, pageSize: 10, total: 21 });
  });

  it('gives null when there is no list at all', () => {
    expect(READERS.listCapacities.read({ rows: [] }, context)).toBeNull();
    expect(READERS.linkedAccounts.read('nope', context)).toBeNull();
  });
});

describe('drift helpers', () => {
  it('list unknown fields and leftovers by path, and completeness of a view', () => {
    expect(unknownFields(CapacityRow, { cidrId: 'a', extra: 1, pricing: { ourPrice: 1, fx: 2 } }, []).sort()).toEqual(['extra', 'pricing.fx']);
    expect(leftover(CapacityRow, { cidrId: 'a', extra: 1, pricing: { ourPrice: 1, fx: 2 } })).toEqual({ extra: 1, pricing: { fx: 2 } });
    expect(driftFindings(CapacityView, { pricing: 'x' })).toContain('not an object: pricing');
    expect(completeCapacityView({ cidrId: 'a', extra: {} })).toBeNull();
  });
});
