import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { INSTANCE_CATALOG, REGIONS } from '../../sandbox/seed/catalog.js';
import { SANDBOX_FEE_SCHEDULE } from '../../shared/money/fee-schedule.js';
import { SANDBOX_TERMS } from '../../shared/money/agreement-terms.js';

const doc = await readFile(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');

describe('docs/sandbox.md', () => {
  it('lists every account, customer, catalog type and region', () => {
    for (const user of SANDBOX_USERS) {
      expect(doc).toContain(user.username);
      expect(doc).toContain(user.password);
      for (const customer of user.customers) expect(doc).toContain(customer.cidExt);
    }
    for (const spec of INSTANCE_CATALOG)
      expect(doc).toContain(`| ${spec.instanceType} | ${spec.vcpu} | ${spec.memory} | ${spec.gpu} | ${spec.gpuMemory} | ${spec.linuxHourly} |`);
    for (const region of REGIONS) expect(doc).toContain(region.regionCode);
  });

  it('states the fee rule with the figures the code uses', () => {
    const [free, low, high] = SANDBOX_FEE_SCHEDULE.beforeLaunch;
    expect(free?.percent).toBe(0);
    expect(doc).toContain(`${free?.daysBeforeLaunch} days or more before launch`);
    expect(doc).toContain(`from ${high?.daysBeforeLaunch === 0 ? low?.daysBeforeLaunch : '?'} days (inclusive) to ${free?.daysBeforeLaunch} days before launch | ${low?.percent} % of ourPrice`);
    expect(doc).toContain(`under ${low?.daysBeforeLaunch} days before launch | ${high?.percent} % of ourPrice`);
    expect(doc).toContain(`${SANDBOX_FEE_SCHEDULE.afterLaunch.percent} % of ourPrice × (time left in the window`);
  });

  it('states the currency the Sandbox environment uses', () => {
    expect(doc).toContain(`Amounts are in **${SANDBOX_TERMS.currency}**`);
  });

  it('documents every control', () => {
    for (const control of ['POST /sandbox/reset', 'GET /sandbox/clock', 'POST /sandbox/clock', 'GET /sandbox/faults', 'POST /sandbox/faults', 'DELETE /sandbox/faults', 'GET /sandbox/stats', 'POST /sandbox/stats/reset'])
      expect(doc).toContain(control);
  });
});
