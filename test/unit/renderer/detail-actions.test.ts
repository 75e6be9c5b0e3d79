import { describe, expect, it } from 'vitest';
import { actionsOfDetail } from '../../../renderer/lib/policy-actions.js';

const details = (policyStatus: string) => ({ cidrId: 'sc_1', policyName: 'n', policyStatus, policyOperatingState: 'RUNNING', cspAccountName: 'a' });
const some = {};

describe('actionsOfDetail: money actions only on the groups they read', () => {
  it('offers what the status allows when every group is there', () => {
    const active = { policyDetails: details('ACTIVE'), dates: some, configuration: some };
    expect(actionsOfDetail(active)).toEqual({ actions: { purchase: false, configure: true, autoRenewal: true, cancel: true }, missing: [] });
  });

  it('withholds configure and auto-renewal without the configuration, and says so', () => {
    const active = { policyDetails: details('ACTIVE'), dates: some };
    expect(actionsOfDetail(active)).toEqual({ actions: { purchase: false, configure: false, autoRenewal: false, cancel: true }, missing: ['configuration'] });
  });

  it('withholds a purchase without the pricing', () => {
    const ready = { policyDetails: details('READY_FOR_PURCHASE'), instances: [], regionSettings: some, dates: some };
    expect(actionsOfDetail(ready)).toEqual({ actions: { purchase: false, configure: false, autoRenewal: false, cancel: false }, missing: ['pricing'] });
  });

  it('offers nothing when the status itself could not be read', () => {
    const noDetails = { pricing: some, dates: some, configuration: some };
    const result = actionsOfDetail(noDetails);
    expect(result.actions).toEqual({ purchase: false, configure: false, autoRenewal: false, cancel: false });
    expect(result.missing).toEqual(['policyDetails']);
  });

  it('does not complain about groups that no allowed action reads', () => {
    expect(actionsOfDetail({ policyDetails: details('EXPIRED') })).toEqual({
      actions: { purchase: false, configure: false, autoRenewal: false, cancel: false },
      missing: [],
    });
  });
});
