import { describe, expect, it } from 'vitest';
import { classifyValue, formatValue, humanise, isNested, orDash } from '../../../renderer/lib/generic-values.js';

describe('humanise', () => {
  it.each([
    ['policyDetails', 'Policy details'],
    ['cidrId', 'CIDR ID'],
    ['cidr_id', 'CIDR ID'],
    ['ebsVolumeSize', 'EBS volume size'],
    ['cspProviderPrice', 'CSP provider price'],
    ['availability-zone-id', 'Availability zone ID'],
    ['vcpu', 'vCPU'],
    ['HTTPStatus', 'HTTP status'],
    ['x', 'X'],
  ])('%s reads as %s', (key, words) => {
    expect(humanise(key)).toBe(words);
  });
});

describe('classifyValue', () => {
  it('reads money, percentages, dates, flags and plain numbers by name and value', () => {
    expect(classifyValue('penaltyFee', 12.5)).toEqual({ kind: 'money', value: 12.5 });
    expect(classifyValue('ourPrice', 100)).toEqual({ kind: 'money', value: 100 });
    expect(classifyValue('savingsPercentage', 0.2)).toEqual({ kind: 'percent', value: 0.2 });
    expect(classifyValue('noticeDays', 30)).toEqual({ kind: 'number', value: 30 });
    expect(classifyValue('startsAt', '2026-03-04T10:00:00Z')).toMatchObject({ kind: 'date', dateOnly: false });
    expect(classifyValue('day', '2026-03-04')).toMatchObject({ kind: 'date', dateOnly: true });
    expect(classifyValue('label', '2026-13-45T99:00:00Z')).toMatchObject({ kind: 'text' });
    expect(classifyValue('enabled', false)).toEqual({ kind: 'boolean', value: false });
    expect(classifyValue('note', 'as sent')).toEqual({ kind: 'text', text: 'as sent' });
  });

  it('shows nothing sent as empty', () => {
    for (const value of [null, undefined, '', '   ']) expect(classifyValue('x', value)).toEqual({ kind: 'empty' });
    expect(formatValue({ kind: 'empty' })).toBe('—');
    expect(orDash(undefined)).toBe('—');
    expect(orDash('')).toBe('—');
    expect(orDash(0)).toBe('0');
  });

  it('turns a list of objects into a table with every column, and an object into a sub-section', () => {
    const table = classifyValue('events', [{ id: 1, type: 'X' }, { id: 2, note: 'y' }]);
    expect(table).toMatchObject({ kind: 'table', columns: ['id', 'type', 'note'] });
    expect(isNested(table)).toBe(true);
    const object = classifyValue('terms', { noticeDays: 30 });
    expect(object).toEqual({ kind: 'object', fields: { noticeDays: 30 } });
    expect(isNested(classifyValue('tags', ['a', 'b']))).toBe(false);
  });
});

describe('formatValue', () => {
  it('formats each kind for reading', () => {
    expect(formatValue(classifyValue('penaltyFee', 1234.5), 'en-US')).toBe('1,234.50');
    expect(formatValue(classifyValue('savingsPercentage', 0.223), 'en-US')).toBe('22.3%');
    expect(formatValue(classifyValue('discountPercent', 15), 'en-US')).toBe('15.0%');
    expect(formatValue(classifyValue('enabled', true))).toBe('Yes');
    expect(formatValue(classifyValue('tags', ['a', 'b']))).toBe('a, b');
    expect(formatValue(classifyValue('day', '2026-03-04'))).toMatch(/2026/);
  });
});
