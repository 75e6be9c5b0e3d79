import { TERMINATION_EVENT_TYPE, parseCancellationFee } from '../../../shared/api/contract-choices.js';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { CancelResult, TerminateResult } from '../../../shared/ipc/models.js';
import type { SessionService } from '../session/session-service.js';
import type { InFlightGuard } from './in-flight-guard.js';
import { sendOnce, type MoneyAction } from './settle-uncertain.js';

export interface MoneyActionsDeps {
  readonly session: SessionService;
  readonly guard: InFlightGuard;
  /** When to re-read a policy after an unanswered request (tests shorten it). */
  readonly checkDelaysMs?: readonly number[];
}

/**
 * The three actions that move money or trigger disaster recovery. Each runs
 * at most once at a time per policy and profile (a double click, a second
 * window, a repeated IPC call is refused), is sent exactly once, and when its
 * answer is lost the policy is read back to tell the user what happened.
 */
export class MoneyActions {
  constructor(private readonly deps: MoneyActionsDeps) {}

  purchase(cidrId: string): Promise<CapacityPolicy> {
    return this.#run('purchase', cidrId, {
      send: () => this.deps.session.authorized((client, token) => client.call('purchaseCapacity', { token, body: { cidrId } })),
      isDone: async () => (await this.#describe(cidrId)).policyDetails?.policyStatus === 'ACTIVE',
    });
  }

  cancel(cidrId: string): Promise<CancelResult> {
    return this.#run('cancel', cidrId, {
      send: async () => {
        const { message } = await this.deps.session.authorized((client, token) =>
          client.call('cancelCapacity', { token, body: { cidrId } }),
        );
        return { message, fee: parseCancellationFee(message) };
      },
      isDone: async () => (await this.#describe(cidrId)).policyDetails?.policyStatus === 'CANCELED',
    });
  }

  terminate(cidrId: string): Promise<TerminateResult> {
    return this.#run('terminate', cidrId, {
      send: async () => {
        const answer = await this.deps.session.authorized((client, token) =>
          client.call('terminateCyberEvent', { token, params: { cidr_id: cidrId } }),
        );
        return answer.code === 201
          ? { outcome: 'created' as const, eventId: answer.data.id, message: answer.message }
          : { outcome: 'already-triggered' as const, eventId: null, message: answer.message };
      },
      isDone: async () => {
        const view = await this.deps.session.authorized((client, token) =>
          client.read('viewCyberPolicy', { token, params: { cidr_id: cidrId } }),
        );
        return (view.disasterRecoveryEvents ?? []).some((event) => event.type === TERMINATION_EVENT_TYPE);
      },
    });
  }

  #run<T>(action: MoneyAction, cidrId: string, request: { send: () => Promise<T>; isDone: () => Promise<boolean> }): Promise<T> {
    const key = `${this.deps.session.status().profileId}:${cidrId}`;
    return this.deps.guard.run(key, GUARD_WORDS[action], () =>
      sendOnce({ action, cidrId, ...request, ...(this.deps.checkDelaysMs ? { checkDelaysMs: this.deps.checkDelaysMs } : {}) }),
    );
  }

  #describe(cidrId: string) {
    return this.deps.session.authorized((client, token) => client.read('describeCapacity', { token, params: { cidr_id: cidrId } }));
  }
}

const GUARD_WORDS: Readonly<Record<MoneyAction, string>> = { purchase: 'purchase', cancel: 'cancellation', terminate: 'termination' };
