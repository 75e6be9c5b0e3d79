import type { AutoRenewalRequest, CapacityPolicy, ConfigureRequest, MessageResponse } from '../../../shared/api/capacity.js';
import { configuredFields, type ActivityLog } from '../activity/activity-log.js';
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
    const { activity, session } = this.#deps;
    const policy = await activity.track(
      activity.owner(),
      { policyKind: 'capacity', cidrId: input.cidrId, action: 'configure' },
      session.authorized((client, token) => client.call('configureCapacity', { token, body: input })),
      () => ({}),
      { configured: configuredFields(input) },
    );
    await this.#deps.repository.afterCapacityAction(input.cidrId, policy);
    return policy;
  }

  async setAutoRenewal(input: AutoRenewalRequest): Promise<MessageResponse> {
    const { activity, session } = this.#deps;
    const answer = await activity.track(
      activity.owner(),
      { policyKind: 'capacity', cidrId: input.cidrId, action: 'autoRenewal' },
      session.authorized((client, token) => client.call('setAutoRenewal', { token, body: input })),
      () => ({}),
      { autoRenewal: { enabled: input.autoRenewalEnabled, frequency: input.autoRenewalEnabled ? (input.frequency ?? null) : null } },
    );
    await this.#deps.repository.afterCapacityAction(input.cidrId);
    return answer;
  }
}
