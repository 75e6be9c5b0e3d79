import { describe, expect, it } from 'vitest';
import { RULE } from '../../../shared/api/contract-choices.js';
import { checkSearch, defaultWindow, type SearchDraft } from '../../../renderer/lib/search-form.js';

const draft: SearchDraft = {
  instanceType: ' m5.large ',
  platform: 'Linux/UNIX',
  availabilityZone: 'use1-az1',
  startIso: '2027-03-01',
  endIso: '2027-03-20',
  utcOffset: 5.5,
};

describe('search form', () => {
  it('turns the date inputs into MM/dd/yyyy and keeps the offset as a number', () => {
    const check = checkSearch(draft);
    expect(check).toEqual({
      ok: true,
      input: { instanceType: 'm5.large', platform: 'Linux/UNIX', availabilityZone: 'use1-az1', startDate: '03/01/2027', endDate: '03/20/2027', clientUtcOffset: 5.5 },
    });
  });

  it('names the field of each broken rule', () => {
    const errors = (d: Partial<SearchDraft>) => {
      const check = checkSearch({ ...draft, ...d });
      return check.ok ? {} : check.errors;
    };
    expect(errors({ instanceType: '  ' })).toEqual({ instanceType: RULE.required });
    expect(errors({ endIso: '2027-02-28' })).toEqual({ endDate: RULE.endBeforeStart });
    expect(errors({ endIso: '2028-03-02' })).toEqual({ endDate: RULE.windowTooLong });
    expect(errors({ startIso: '' })).toEqual({ startDate: RULE.date });
    expect(errors({ utcOffset: 18.5 })).toEqual({ clientUtcOffset: RULE.utcOffset });
    expect(errors({ utcOffset: null })).toEqual({ clientUtcOffset: RULE.utcOffset });
    expect(errors({ utcOffset: -18 })).toEqual({});
  });

  it('offers a 30-day window from tomorrow, across a month end', () => {
    expect(defaultWindow(new Date(2027, 0, 31, 15))).toEqual({ startIso: '2027-02-01', endIso: '2027-03-02' });
  });
});
