import type { AutoRenewalRequest, CapacityPolicy, ConfigureRequest, MessageResponse } from '../../../shared/api/capacity.js';
import { configuredFields, type ActivityFacts, type ActivityLog } from '../activity/activity-log.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { PolicyRepository } from '../repository/policy-repository.js';
import type { SessionService } from '../session/session-service.js';

export interface PolicyChangesDeps {
  readonly session: Pick<SessionService, 'authorized'>;
  readonly activity: Pick<ActivityLog, 'owner' | 'track'>;
  readonly repository: Pick<PolicyRepository, 'afterCapacityAction'>;
}

/**
 * The changes to a policy that move no money (its configuration, its renewal
 * setting), beside MoneyActions: each is sent once, recorded in the activity
 * record of who sent it whatever its outcome, and its answer written through
 * and read back before it returns, so the next read shows it.
 */
export class PolicyChanges {
  readonly #deps: PolicyChangesDeps;

  constructor(deps: PolicyChangesDeps) {
    this.#deps = deps;
  }

  async configure(input: ConfigureRequest): Promise<CapacityPolicy> {
    const policy = await this.#tracked(input.cidrId, 'configure', { configured: configuredFields(input) }, (client, token) =>
      client.call('configureCapacity', { token, body: input }),
    );
    await this.#deps.repository.afterCapacityAction(input.cidrId, policy);
    return policy;
  }

  async setAutoRenewal(input: AutoRenewalRequest): Promise<MessageResponse> {
    const asked = { autoRenewal: { enabled: input.autoRenewalEnabled, frequency: input.autoRenewalEnabled ? (input.frequency ?? null) : null } };
    const answer = await this.#tracked(input.cidrId, 'autoRenewal', asked, (client, token) => client.call('setAutoRenewal', { token, body: input }));
    // The renewal answer carries no policy: the write-through reads it back.
    await this.#deps.repository.afterCapacityAction(input.cidrId);
    return answer;
  }

  /** Sends one change once, recording it (with what was asked) in the activity of whoever is signed in. */
  #tracked<T>(cidrId: string, action: 'configure' | 'autoRenewal', asked: ActivityFacts, send: (client: ApiClient, token: string) => Promise<T>): Promise<T> {
    const { activity, session } = this.#deps;
    return activity.track(activity.owner(), { policyKind: 'capacity', cidrId, action }, session.authorized(send), () => ({}), asked);
  }
}
