import { describe, expect, it } from 'vitest';
import { CapacityPolicy, CapacityView } from '../../../shared/api/capacity.js';
import { driftFindings, leftover, unknownFields } from '../../../shared/api/drift.js';
import { READERS } from '../../../shared/api/readers.js';
import { toJson } from '../../../shared/api/tolerant.js';
import { humanise } from '../../../renderer/lib/generic-values.js';
import { DoneAfterAll, sendOnce } from '../../../electron/services/money/settle-uncertain.js';
import { syntheticPolicies } from '../../support/synthetic-policies.js';

/**
 * Field names are the service's to choose. Names Object.prototype also has
 * must be read as ordinary fields by every reader, and a failure while reading
 * a money action's answer must never free the policy for a resend.
 */
const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const context = { params: { cidr_id: 'sc_100000' }, query: {} };

/** JSON.parse, as the client does, so `__proto__` arrives as an own key. */
function withField(value: unknown, name: string, at: 'top' | 'pricing'): Record<string, unknown> {
  const json = JSON.stringify(value);
  const extra = `"${name}":{"note":"odd"}`;
  return JSON.parse(at === 'top' ? json.replace(/^\{/, `{${extra},`) : json.replace('"pricing":{', `"pricing":{${extra},`)) as Record<string, unknown>;
}

describe.each(NAMES)('a service answer with a field named %s', (name) => {
  const policy = syntheticPolicies(1)[0]!;

  it('is reported as an unknown field and kept, without touching Object.prototype', () => {
    for (const at of ['top', 'pricing'] as const) {
      const json = withField(policy, name, at);
      const path = at === 'top' ? name : `pricing.${name}`;
      expect(driftFindings(CapacityPolicy, json)).toContain(`unknown field ${path}`);
      expect(unknownFields(CapacityPolicy, json, [])).toEqual([path]);
      const rest = leftover(CapacityPolicy, json) as Record<string, unknown>;
      const kept = at === 'top' ? rest : (rest.pricing as Record<string, unknown>);
      expect(Object.hasOwn(kept, name)).toBe(true);
      expect(Object.hasOwn(toJson(json) as object, name)).toBe(at === 'top');
    }
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).note).toBeUndefined();
  });

  it('does not cost a list its item or a detail view its groups', () => {
    const page = READERS.listCapacities.read({ data: [withField(policy, name, 'top'), policy], page: 1, pageSize: 10, total: 2 }, context);
    expect(page?.data.map((row) => row.cidrId)).toEqual([policy.cidrId, policy.cidrId]);
    const view = CapacityView.parse({
      policyDetails: { cidrId: policy.cidrId, policyName: policy.policyName, cspAccountName: policy.cspAccountName, policyStatus: policy.policyStatus, policyOperatingState: policy.policyOperatingState },
      regionSettings: policy.cspRegion,
      instances: [policy.policyInstance],
      dates: { createdDate: policy.createdDate, launchDateTime: policy.capacityConfiguration.launchDateTime, endDateTime: policy.capacityConfiguration.endDateTime },
      configuration: policy.capacityConfiguration,
      disasterRecoveryEvents: [],
      pricing: policy.pricing,
    });
    const detail = READERS.describeCapacity.read(withField(view, name, 'top'), context);
    expect(detail?.policyDetails?.cidrId).toBe(policy.cidrId);
    expect(Object.hasOwn(detail?.extra ?? {}, name)).toBe(true);
  });

  it('gets a label made of its own words', () => {
    expect(humanise(name)).not.toMatch(/function|native code/);
  });
});

describe('a money action whose answer fails to be read after it was sent', () => {
  it('is settled by reading the policy back, never left free for a resend', async () => {
    let sent = 0;
    let readBacks = 0;
    const attempt = sendOnce({
      action: 'purchase',
      cidrId: 'sc_1',
      checkDelaysMs: [0],
      send: async () => {
        sent += 1;
        // A bug of ours after the service acted (e.g. in reading its answer), not a typed client failure.
        throw new TypeError("Cannot read properties of undefined (reading 'def')");
      },
      isDone: async () => {
        readBacks += 1;
        return true;
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(DoneAfterAll);
    expect(sent).toBe(1);
    expect(readBacks).toBeGreaterThan(0);
  });
});

describe('what a read-back status says about a money action', () => {
  it('is done or not done only for the statuses that say so; anything else keeps the policy locked', async () => {
    const { capacityOutcome } = await import('../../../electron/services/money/money-actions.js');
    const purchase = capacityOutcome('ACTIVE', 'READY_FOR_PURCHASE');
    expect(purchase('ACTIVE')).toBe(true);
    expect(purchase('READY_FOR_PURCHASE')).toBe(false);
    for (const unfamiliar of ['PENDING', 'active', 'FAILED', 'COMPLETED', '', null]) expect(purchase(unfamiliar)).toBeNull();
    const cancel = capacityOutcome('CANCELED', 'ACTIVE');
    expect(cancel('CANCELED')).toBe(true);
    expect(cancel('ACTIVE')).toBe(false);
    for (const unfamiliar of ['CANCELLED', 'EXPIRED', 'READY_FOR_PURCHASE', null]) expect(cancel(unfamiliar)).toBeNull();
  });
});
