import { answer, resetFakeApi } from './support/fake-api.js';
import { describe, expect, it, vi } from 'vitest';
import type * as Zod from 'zod';

/**
 * The page's first code is evaluated before the overview can mount, and making zod schemas was most of that
 * evaluation (issue 25, branches overview12 and overview16). The stores in that code read their kept view state back
 * through schemas made at their first use: evaluating them makes none but the few enums they share with the main
 * process. Every `z.` the modules reach while they are evaluated is seen here.
 */
const watch = vi.hoisted(() => ({ on: false, reached: [] as string[] }));
vi.mock('zod', async (importOriginal) => {
  const real = await importOriginal<typeof Zod>();
  const z = new Proxy(real.z, {
    get(target, key, receiver) {
      if (watch.on) watch.reached.push(String(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { ...real, z };
});

describe("the first code's stores and their kept state (issue 25, branch overview16)", () => {
  it('make no schema but an enum as they are evaluated, and read the kept state back through their schemas after', { timeout: 60_000 }, async () => {
    resetFakeApi();
    watch.on = true;
    await import('../../renderer/stores/capacity-list.svelte.js');
    const { savedViews } = await import('../../renderer/stores/saved-views.svelte.js');
    const { capacityTableLayout, LAYOUT_KEY } = await import('../../renderer/stores/capacity-table-layout.svelte.js');
    await import('../../renderer/stores/renewal-worklist.svelte.js');
    await import('../../renderer/lib/capacity-filters.js');
    watch.on = false;
    expect(watch.reached.filter((key) => key !== 'enum')).toEqual([]);

    // Made at their first use, the schemas read the kept state back.
    const { loadViewState } = await import('../../renderer/lib/persisted.js');
    const { sessionScope } = await import('../../renderer/lib/session-scope.js');
    const user = 'sandbox\u0000alex';
    const view = { name: 'Mine', status: 'ACTIVE', text: 'g5', sortBy: 'end', sortOrder: 'asc', filters: { account: 'prod', instanceType: '', availabilityZone: '', launchFrom: '', launchTo: '' }, columns: ['cidrId'] };
    let hash = 0x811c9dc5;
    for (const char of user) hash = Math.imul(hash ^ (char.codePointAt(0) as number), 0x01000193) >>> 0;
    answer('views.state', () => ({
      ok: true,
      value: {
        [LAYOUT_KEY]: { users: [{ user, layout: { shown: ['cidrId', 'end'], widths: [['end', 200]] } }] },
        [`capacity-desk.saved-views.${hash.toString(16).padStart(8, '0')}`]: [view],
      },
    }));
    await loadViewState();
    sessionScope.use(user);
    // A view saved before the 'running' filter (cust16) reads as not filtered by it.
    expect(savedViews.views).toEqual([{ ...view, filters: { ...view.filters, running: '' } }]);
    expect(capacityTableLayout.width('end')).toBe(200);
    expect(capacityTableLayout.columns.map((column) => column.id)).toContain('end');
  });
});
