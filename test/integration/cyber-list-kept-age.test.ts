import { afterEach, describe, expect, it } from 'vitest';
import { type SourcedCyberPage } from '../../shared/ipc/sourced.js';
import { value } from '../support/ipc-result.js';
import { DR_CUSTOMER, startSyncedWithCustomer } from '../support/synced-with-customer.js';
import type { FastApp } from '../unit/api-client/sandbox-fixture.js';

/**
 * review14, against money14's write-through of a DR view into its customer's kept list: one policy seen in full says
 * nothing of the others, so the kept list keeps the age of the read that gave it (as a capacity write-through keeps
 * the list's age). A list stamped "now" because one item was brought in line would show offline a weeks-old list as
 * fresh.
 */
let app: FastApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('a DR view kept into its customer\'s kept list (money14)', () => {
  it('changes the item it saw and keeps the list\'s age', async () => {
    const fast = await startSyncedWithCustomer();
    app = fast;
    const customerId = DR_CUSTOMER;
    // Read from the copy (a list read online is a page written through, which says its own age).
    value(await fast.call('offline.enter', { profileId: 'sandbox' }));
    const synced = value<SourcedCyberPage>(await fast.call('cyber.list', { customerId, page: 1, pageSize: 100 }));
    value(await fast.call('offline.leave'));
    expect(synced.origin.source).toBe('replica');
    const policy = synced.data.find((item) => item.terminationTriggered === false);
    if (!policy) throw new Error(`the seed has no DR policy of ${customerId} without a termination`);

    // The clock moves on between the sync and the termination.
    await new Promise((resolve) => setTimeout(resolve, 50));
    value(await fast.call('cyber.terminate', { cidrId: policy.cidrId }));

    value(await fast.call('offline.enter', { profileId: 'sandbox' }));
    const kept = value<SourcedCyberPage>(await fast.call('cyber.list', { customerId, page: 1, pageSize: 100 }));
    value(await fast.call('offline.leave'));
    expect(kept.origin.source).toBe('replica');
    expect(kept.data.find((item) => item.cidrId === policy.cidrId)?.terminationTriggered).toBe(true);
    // The other items are as the sync read them, and so is the list's age.
    expect(kept.origin.fetchedAt).toBe(synced.origin.fetchedAt);
  }, 60_000);
});
