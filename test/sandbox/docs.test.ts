import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { INSTANCE_CATALOG, REGIONS } from '../../sandbox/seed/catalog.js';
import { FEE_RULE } from '../../sandbox/state/fees.js';

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
    expect(doc).toContain(`${FEE_RULE.freeDaysBeforeLaunch} days or more before launch`);
    expect(doc).toContain(`${FEE_RULE.lowRate * 100} % of ourPrice`);
    expect(doc).toContain(`${FEE_RULE.highRate * 100} % of ourPrice`);
    expect(doc).toContain(`${FEE_RULE.afterLaunchRate * 100} % of ourPrice`);
  });

  it('documents every control', () => {
    for (const control of ['POST /sandbox/reset', 'GET /sandbox/clock', 'POST /sandbox/clock', 'GET /sandbox/faults', 'POST /sandbox/faults', 'DELETE /sandbox/faults', 'GET /sandbox/stats', 'POST /sandbox/stats/reset'])
      expect(doc).toContain(control);
  });
});
