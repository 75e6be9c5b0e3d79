import { describe, expect, it } from 'vitest';
import { offeringSpan, policiesFitting, purchasable, requestedSpan, windowFit } from '../../../renderer/lib/offering-fit.js';
import { quoteRequestText } from '../../../renderer/lib/quote-request.js';
import { syntheticPolicies } from '../../support/synthetic-policies.js';

describe('offering fit', () => {
  it('reads the requested window at the search offset, whole days', () => {
    const span = requestedSpan('03/01/2027', '03/20/2027', 5.5)!;
    expect(new Date(span.start).toISOString()).toBe('2027-02-28T18:30:00.000Z');
    expect(new Date(span.end).toISOString()).toBe('2027-03-20T18:30:00.000Z');
    expect(requestedSpan('soon', '03/20/2027', 0)).toBeNull();
    expect(requestedSpan('2027-03-01', '03/20/2027', 0)).toBeNull();
  });

  it('keeps the policies whose whole run lies inside the offering', () => {
    const [inside, early, late, unknown] = syntheticPolicies(4).map((p, i) => ({
      ...p,
      capacityConfiguration: {
        ...p.capacityConfiguration,
        launchDateTime: ['2027-03-02T00:00:00+00:00', '2027-02-27T00:00:00+00:00', '2027-03-05T00:00:00+00:00', 'tbd'][i]!,
        endDateTime: ['2027-03-10T00:00:00+00:00', '2027-03-05T00:00:00+00:00', '2027-04-02T00:00:00+00:00', '2027-03-10T00:00:00+00:00'][i]!,
      },
    }));
    const offering = { title: 'm5.large', status: 'AVAILABLE_ALL', startDateTime: '2027-03-01T00:00:00+00:00', endDateTime: '2027-03-31T00:00:00+00:00' };
    expect(policiesFitting(offering, [inside!, early!, late!, unknown!]).map((p) => p.cidrId)).toEqual([inside!.cidrId]);
    expect(policiesFitting({ title: 'x' }, [inside!])).toEqual([]);
    // Partly free, not free, or a status this version does not know: no policy is said to fit.
    for (const status of ['AVAILABLE_PARTIAL', 'NOT_AVAILABLE', 'HELD']) expect(policiesFitting({ ...offering, status }, [inside!])).toEqual([]);
    expect(offeringSpan({ title: 'x', startDateTime: '2027-03-02T00:00:00Z', endDateTime: '2027-03-01T00:00:00Z' })).toBeNull();
  });

  it('offers a purchase only for a whole record', () => {
    const [policy] = syntheticPolicies(1);
    expect(purchasable(policy!)?.cidrId).toBe(policy!.cidrId);
    const { pricing: _pricing, ...partial } = policy!;
    expect(purchasable(partial)).toBeNull();
  });

  it('says whether a window fits a free run, is only partly available, or is not free at all', () => {
    const [policy] = syntheticPolicies(1);
    const windowed = {
      ...policy!,
      capacityConfiguration: { ...policy!.capacityConfiguration, launchDateTime: '2027-03-05T00:00:00Z', endDateTime: '2027-03-15T00:00:00Z' },
    };
    const run = (status: string, start: string, end: string) => ({ title: 't', status, startDateTime: start, endDateTime: end });
    expect(windowFit(windowed, [run('AVAILABLE_ALL', '2027-03-01T00:00:00Z', '2027-03-31T00:00:00Z')])).toBe('fits');
    // A free run that ends inside the window: the case of a badge on a window that did not fit.
    expect(windowFit(windowed, [run('AVAILABLE_ALL', '2027-03-01T00:00:00Z', '2027-03-10T00:00:00Z')])).toBe('partly');
    expect(windowFit(windowed, [run('AVAILABLE_PARTIAL', '2027-03-01T00:00:00Z', '2027-03-31T00:00:00Z')])).toBe('partly');
    expect(windowFit(windowed, [run('NOT_AVAILABLE', '2027-03-01T00:00:00Z', '2027-03-31T00:00:00Z')])).toBe('not-free');
    expect(windowFit(windowed, [])).toBe('not-free');
    expect(windowFit({ ...windowed, capacityConfiguration: { ...windowed.capacityConfiguration, launchDateTime: 'tbd' } }, [])).toBeNull();
  });

  it('writes the quote request with the search exactly as searched', () => {
    const text = quoteRequestText(
      { instanceType: 'g5.2xlarge', platform: 'Linux/UNIX', availabilityZone: 'euc1-az1', startDate: '12/01/2026', endDate: '12/31/2026', clientUtcOffset: 1 },
      { environment: 'Sandbox', readyMatching: 3 },
    );
    expect(text.split('\n')).toEqual([
      'Capacity request: no ready policy fits this search',
      'Instance type: g5.2xlarge',
      'Platform: Linux/UNIX',
      'Availability zone: euc1-az1',
      'Window: 12/01/2026 to 12/31/2026 (dates MM/dd/yyyy at UTC+01:00)',
      'Ready policies of this type, platform and zone: 3, none inside a free run of the window',
      'Environment: Sandbox',
      'Please prepare a policy for this window, or tell me the nearest window you can offer.',
    ]);
  });
});
