import { parseCancellationFee } from '../../../shared/api/contract-choices.js';
import type { InFlightGuard } from '../money/in-flight-guard.js';
import type { ProfileRegistry } from '../profiles/profile-registry.js';
import type { SessionService } from '../session/session-service.js';
import type { Handlers } from './handlers.js';

export interface HandlerDeps {
  readonly profiles: ProfileRegistry;
  readonly session: SessionService;
  readonly moneyGuard: InFlightGuard;
}

export function createHandlers({ profiles, session, moneyGuard }: HandlerDeps): Handlers {
  const call = session.authorized.bind(session);
  /** One money action per policy and profile at a time. */
  const guarded = <T>(cidrId: string, action: string, work: () => Promise<T>) =>
    moneyGuard.run(`${session.status().profileId}:${cidrId}`, action, work);

  return {
    'profiles.list': async () => profiles.list(),
    'session.status': async () => session.status(),
    'session.signIn': (input) => session.signIn(input),
    'session.signOut': () => session.signOut(),
    'accounts.list': () => call((client, token) => client.call('linkedAccounts', { token })),

    'capacity.list': (input) => call((client, token) => client.call('listCapacities', { token, query: input })),
    'capacity.describe': ({ cidrId }) =>
      call((client, token) => client.call('describeCapacity', { token, params: { cidr_id: cidrId } })),
    'capacity.search': (input) => call((client, token) => client.call('searchCapacity', { token, query: input })),
    'capacity.purchase': ({ cidrId }) =>
      guarded(cidrId, 'purchase', () => call((client, token) => client.call('purchaseCapacity', { token, body: { cidrId } }))),
    'capacity.configure': (input) => call((client, token) => client.call('configureCapacity', { token, body: input })),
    'capacity.setAutoRenewal': (input) => call((client, token) => client.call('setAutoRenewal', { token, body: input })),
    'capacity.cancel': ({ cidrId }) =>
      guarded(cidrId, 'cancellation', async () => {
        const { message } = await call((client, token) => client.call('cancelCapacity', { token, body: { cidrId } }));
        return { message, fee: parseCancellationFee(message) };
      }),

    'cyber.list': ({ customerId, ...query }) =>
      call((client, token) => client.call('listCyberPolicies', { token, params: { cid_ext: customerId }, query })),
    'cyber.view': ({ cidrId }) => call((client, token) => client.call('viewCyberPolicy', { token, params: { cidr_id: cidrId } })),
    'cyber.terminate': ({ cidrId }) =>
      guarded(cidrId, 'termination', async () => {
        const answer = await call((client, token) => client.call('terminateCyberEvent', { token, params: { cidr_id: cidrId } }));
        return answer.code === 201
          ? { outcome: 'created' as const, eventId: answer.data.id, message: answer.message }
          : { outcome: 'already-triggered' as const, eventId: null, message: answer.message };
      }),
  };
}
