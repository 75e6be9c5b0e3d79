import { afterEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import { CapacityWindow, type SourcedCyberDetail, type SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { TERMINATION_EVENT_TYPE } from '../../shared/api/contract-choices.js';
import { MoneyState } from '../../shared/ipc/money.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { value } from '../support/ipc-result.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { DR_CUSTOMER, startSyncedWithCustomer } from '../support/synced-with-customer.js';

/**
 * Review12's note (branch trust13): a purchase or a cancel the service carried out whose answer was lost is settled
 * by reading the policy back, and that read is the service's word as much as an answer is: it is written through
 * to the copy, so the list shows the policy as it now is at once, not at the next refresh. The sandbox carries the
 * request out and drops the connection before its answer (`dropAnswerRate`).
 */
let app: FastApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const CASES = [
  { action: 'capacity.cancel', endpoint: ENDPOINTS.cancelCapacity, from: 'ACTIVE', to: 'CANCELED', word: 'cancellation' },
  { action: 'capacity.purchase', endpoint: ENDPOINTS.purchaseCapacity, from: 'READY_FOR_PURCHASE', to: 'ACTIVE', word: 'purchase' },
] as const;

describe('a money action whose answer was lost, settled by its read-back (trust13)', () => {
  for (const { action, endpoint, from, to, word } of CASES) {
    it(`${action}: the read-back's policy is written through, and the list from the copy shows it ${to} without asking the service`, async () => {
      const fast = await startFastApp({ secrets: new FixedSecretStore(), moneyCheckDelaysMs: [0, 300] });
      app = fast;
      await fast.signIn('sandbox', ALEX);
      value(await fast.call('offline.sync'));
      const list = async (query: object) =>
        CapacityWindow.parse(value(await fast.call('capacity.list', { offset: 0, limit: 5, text: '', sortBy: 'createdDate', sortOrder: 'desc', ...query })));
      const policy = (await list({ status: from, limit: 1 })).rows[0];
      if (!policy) throw new Error(`the seed has no ${from} policy`);

      await fast.controls.addFault({ pathPrefix: endpoint.path.replace('{cidr_id}', policy.cidrId), method: endpoint.method, dropAnswerRate: 1, dropAnswerCount: 1 });
      const sent = await fast.call(action, { cidrId: policy.cidrId });
      await fast.controls.clearFaults();
      // Carried out, its answer lost, settled by the read-back: not sent again, and the person is told.
      expect(sent.ok).toBe(false);
      if (!sent.ok) expect(sent.error.message).toContain(`the ${word} went through`);
      expect(MoneyState.parse(value(await fast.call('money.state', { cidrId: policy.cidrId })))).toMatchObject({ state: 'free' });

      await fast.controls.resetStats();
      const shown = await list({ text: policy.cidrId });
      expect(shown.origin.source).toBe('replica');
      // Before trust13 the copy still showed the policy as it was before the action, until the next refresh.
      expect(shown.rows.map((row) => [row.cidrId, row.policyStatus])).toEqual([[policy.cidrId, to]]);
      expect((await fast.controls.stats()).listCapacities ?? 0).toBe(0);
    }, 60_000);
  }
});

/**
 * The same for a DR termination (money14; trust13 left it out): the read-back that settles a termination whose answer
 * was lost is kept as the answered termination's read is, and the customer's kept DR list says it too. Read from the
 * copy (offline), where before the view had no termination event and the list said none was triggered.
 */
describe('a DR termination whose answer was lost, settled by its read-back (money14)', () => {
  for (const lost of [true, false]) {
    it(`${lost ? 'its answer lost' : 'answered'}: the copy's view and the customer's DR list show the termination`, async () => {
      const fast = await startSyncedWithCustomer();
      app = fast;
      const customerId = DR_CUSTOMER;
      const listed = value<SourcedCyberPage>(await fast.call('cyber.list', { customerId, page: 1, pageSize: 100 }));
      const policy = listed.data.find((item) => item.terminationTriggered === false);
      if (!policy) throw new Error(`the seed has no DR policy of ${customerId} without a termination`);

      if (lost) await fast.controls.addFault({ pathPrefix: ENDPOINTS.terminateCyberEvent.path.replace('{cidr_id}', policy.cidrId), method: 'POST', dropAnswerRate: 1, dropAnswerCount: 1 });
      const sent = await fast.call('cyber.terminate', { cidrId: policy.cidrId });
      await fast.controls.clearFaults();
      if (lost) {
        expect(sent.ok).toBe(false);
        if (!sent.ok) expect(sent.error.message).toContain('the termination went through');
      } else {
        expect(sent.ok).toBe(true);
      }
      expect(MoneyState.parse(value(await fast.call('money.state', { cidrId: policy.cidrId })))).toMatchObject({ state: 'free' });

      value(await fast.call('offline.enter', { profileId: 'sandbox' }));
      const view = value<SourcedCyberDetail>(await fast.call('cyber.view', { cidrId: policy.cidrId }));
      expect(view.origin.source).toBe('replica');
      expect(view.disasterRecoveryEvents?.some((event) => event.type === TERMINATION_EVENT_TYPE)).toBe(true);
      const kept = value<SourcedCyberPage>(await fast.call('cyber.list', { customerId, page: 1, pageSize: 100 }));
      expect(kept.origin.source).toBe('replica');
      expect(kept.data.find((item) => item.cidrId === policy.cidrId)?.terminationTriggered).toBe(true);
      // Nothing else of the list changed.
      const others = (page: SourcedCyberPage) => page.data.filter((item) => item.cidrId !== policy.cidrId).sort((a, b) => a.cidrId.localeCompare(b.cidrId));
      expect(others(kept)).toEqual(others(listed));
      value(await fast.call('offline.leave'));
    }, 60_000);
  }
});
