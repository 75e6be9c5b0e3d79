import type { ApiClient } from '../../electron/services/api-client/api-client.js';

/**
 * Flips the auto-renewal of the first `count` policies of the list on the service, behind the app's back (as
 * between two sign-ins): that many rows then differ from the app's copy, and its next refresh writes them.
 */
export async function changeSome(client: ApiClient, token: string, count: number): Promise<void> {
  const page = await client.call('listCapacities', { token, query: { page: 1, pageSize: count } });
  for (const policy of page.data) {
    const enabled = !policy.capacityConfiguration.autoRenewalEnabled;
    await client.call('setAutoRenewal', { token, body: { cidrId: policy.cidrId, autoRenewalEnabled: enabled, frequency: enabled ? 'ONE_MONTH' : null } });
  }
}
