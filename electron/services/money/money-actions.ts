import { TERMINATION_EVENT_TYPE, parseCancellationFee } from '../../../shared/api/contract-choices.js';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { CyberView } from '../../../shared/api/cyber.js';
import type { CancelResult, TerminateResult } from '../../../shared/ipc/models.js';
import type { MoneyState } from '../../../shared/ipc/money.js';
import type { SessionService } from '../session/session-service.js';
import type { MoneyLock, OutcomeCheck, PolicyFact } from './money-lock.js';
import { sendOnce, type MoneyAction } from './settle-uncertain.js';

export interface MoneyActionsDeps {
  readonly session: SessionService;
  readonly lock: MoneyLock;
  /** When to re-read a policy after an unanswered request (tests shorten it). */
  readonly checkDelaysMs?: readonly number[];
}

/**
 * Whether a DR policy's view shows its termination event; null when the view
 * carries no events at all (a service answering differently), which says nothing.
 */
export function terminationShown(view: { readonly disasterRecoveryEvents?: CyberView['disasterRecoveryEvents'] | undefined }): boolean | null {
  if (!view.disasterRecoveryEvents) return null;
  return view.disasterRecoveryEvents.some((event) => event.type === TERMINATION_EVENT_TYPE);
}

/**
 * What a capacity policy's status says about a money action: done when it shows
 * the action's result, not done only while it still shows the state the action
 * starts from, and nothing otherwise (no status, or one this version does not
 * know, such as "CANCELLED" or "PENDING"): then the policy stays locked rather
 * than be offered again on a guess.
 */
export function capacityOutcome(doneStatus: string, startStatus: string): (status: string | null) => boolean | null {
  return (status) => (status === doneStatus ? true : status === startStatus ? false : null);
}

const PURCHASE_OUTCOME = capacityOutcome('ACTIVE', 'READY_FOR_PURCHASE');
const CANCEL_OUTCOME = capacityOutcome('CANCELED', 'ACTIVE');

/**
 * The three actions that move money or trigger disaster recovery. Each goes
 * through the policy's lock (one request per policy, joined or refused while
 * in flight, locked while its outcome is unknown), is sent exactly once, and
 * when its answer is lost the policy is read back to tell the user what happened.
 */
export class MoneyActions {
  constructor(private readonly deps: MoneyActionsDeps) {}

  purchase(cidrId: string): Promise<CapacityPolicy> {
    return this.#run('purchase', cidrId, this.#capacityShows(cidrId, PURCHASE_OUTCOME), () =>
      this.deps.session.authorized((client, token) => client.call('purchaseCapacity', { token, body: { cidrId } })),
    );
  }

  cancel(cidrId: string): Promise<CancelResult> {
    return this.#run('cancel', cidrId, this.#capacityShows(cidrId, CANCEL_OUTCOME), async () => {
      const { message } = await this.deps.session.authorized((client, token) => client.call('cancelCapacity', { token, body: { cidrId } }));
      return { message, fee: parseCancellationFee(message) };
    });
  }

  terminate(cidrId: string): Promise<TerminateResult> {
    const check: OutcomeCheck = {
      readBack: async () => ({
        kind: 'cyber',
        // Read tolerantly: a view shaped unlike the sandbox's can still settle the outcome.
        terminated: terminationShown(
          await this.deps.session.authorized((client, token) => client.read('viewCyberPolicy', { token, params: { cidr_id: cidrId } })),
        ),
      }),
      shows: (fact) => (fact.kind === 'cyber' ? fact.terminated : null),
    };
    return this.#run('terminate', cidrId, check, async () => {
      const answer = await this.deps.session.authorized((client, token) =>
        client.call('terminateCyberEvent', { token, params: { cidr_id: cidrId } }),
      );
      return answer.code === 201
        ? { outcome: 'created' as const, eventId: answer.data.id, message: answer.message }
        : { outcome: 'already-triggered' as const, eventId: null, message: answer.message };
    });
  }

  /** Where the policy's money actions stand, for the signed-in environment. */
  state(cidrId: string): MoneyState {
    return this.deps.lock.state(this.#profileId(), cidrId);
  }

  /** Reads the policy back now to settle an unknown outcome ("Check status"). */
  check(cidrId: string): Promise<MoneyState> {
    return this.deps.lock.check(this.#profileId(), cidrId);
  }

  /** A policy read by any other call: may settle an unknown outcome at no extra request. */
  observe(cidrId: string, fact: PolicyFact): void {
    this.deps.lock.observe(this.#profileId(), cidrId, fact);
  }

  #run<T>(action: MoneyAction, cidrId: string, check: OutcomeCheck, send: () => Promise<T>): Promise<T> {
    const isDone = async () => check.shows(await check.readBack()) === true;
    return this.deps.lock.run(this.#profileId(), cidrId, action, check, () =>
      sendOnce({ action, cidrId, send, isDone, ...(this.deps.checkDelaysMs ? { checkDelaysMs: this.deps.checkDelaysMs } : {}) }),
    );
  }

  #capacityShows(cidrId: string, outcome: (status: string | null) => boolean | null): OutcomeCheck {
    return {
      readBack: async () => {
        const view = await this.deps.session.authorized((client, token) =>
          client.read('describeCapacity', { token, params: { cidr_id: cidrId } }),
        );
        return { kind: 'capacity', status: view.policyDetails?.policyStatus ?? null };
      },
      shows: (fact) => (fact.kind === 'capacity' ? outcome(fact.status) : null),
    };
  }

  #profileId(): string {
    return this.deps.session.status().profileId;
  }
}
