import { FixedSecretStore } from './fixed-key-store.js';
import { value } from './ipc-result.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

/** The DR customer whose list the seeded sandbox fills: remembered for the profile, so a sync keeps their list. */
export const DR_CUSTOMER = 'CUST-1001';

/** A request-counting app with a keychain'd copy, Alex signed in, DR_CUSTOMER remembered and the copy synced. */
export async function startSyncedWithCustomer(): Promise<FastApp> {
  const fast = await startFastApp({ secrets: new FixedSecretStore(), moneyCheckDelaysMs: [0, 300] });
  try {
    await fast.signIn('sandbox', ALEX);
    value(await fast.call('profiles.rememberCustomer', { profileId: 'sandbox', customerId: DR_CUSTOMER }));
    value(await fast.call('offline.sync'));
    return fast;
  } catch (error) {
    await fast.close();
    throw error;
  }
}
