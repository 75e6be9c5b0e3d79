import { TERMINATION_EVENT_TYPE, parseCancellationFee } from '../../../shared/api/contract-choices.js';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { CapacityDetail, CyberDetail } from '../../../shared/api/readers.js';
import type { CyberView } from '../../../shared/api/cyber.js';
import type { CancelResult, TerminateResult } from '../../../shared/ipc/money-results.js';
import type { MoneyState } from '../../../shared/ipc/money.js';
import type { SessionService } from '../session/session-service.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { MoneyLock, MoneyOwner, OutcomeCheck, PolicyFact } from './money-lock.js';
import { sendOnce, type MoneyAction } from './settle-uncertain.js';
import type { ActivityFacts, ActivityLog, ActivitySubject } from '../activity/activity-log.js';

/** A read-back made while someone else is signed in, or across a switch of environment or user: it settles nothing. */
export class SessionSwitched extends AppFailure {
  constructor(owner: MoneyOwner) {
    super({
      kind: 'unauthorized',
      message: `the request was sent by ${owner.username} in environment "${owner.profileId}", and only their own session can read it back`,
    });
    this.name = 'SessionSwitched';
  }
}

export interface MoneyActionsDeps {
  readonly session: SessionService;
  readonly lock: MoneyLock;
  /** When to re-read a policy after an unanswered request (tests shorten it). */
  readonly checkDelaysMs?: readonly number[];
  /** Where each request's outcome, and each read-back that settles one, is recorded for the policy's activity. */
  readonly activity?: ActivityLog;
  /**
   * Told of each capacity policy a read-back read, as its sender with the session unchanged, before the
   * read-back's verdict is taken: the app writes it through to the copy as it does an answer (a cancel whose
   * answer was lost showed ACTIVE in the list until the next refresh). Its own failures are its own.
   */
  readonly readBackSeen?: (view: CapacityDetail) => Promise<void>;
  /** The same for a DR policy a termination's read-back read (a termination whose answer was lost stayed unseen offline). */
  readonly cyberReadBackSeen?: (cidrId: string, view: CyberDetail) => Promise<void>;
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
  /** Aborted by close: read-backs under way stop waiting, and none is made after it. */
  readonly #closing = new AbortController();

  constructor(private readonly deps: MoneyActionsDeps) {}

  /**
   * The app closes: read-backs still waiting stop (their outcome stays unknown and recorded, read back at the next
   * start, never sent again); resolves once every request and read-back started here has ended and been recorded.
   */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.deps.lock.close();
  }

  purchase(cidrId: string): Promise<CapacityPolicy> {
    return this.#run(
      'purchase',
      cidrId,
      () => this.deps.session.authorized((client, token) => client.call('purchaseCapacity', { token, body: { cidrId } })),
      (policy) => ({ price: policy.pricing.ourPrice }),
    );
  }

  cancel(cidrId: string): Promise<CancelResult> {
    return this.#run('cancel', cidrId, async () => {
      const { message } = await this.deps.session.authorized((client, token) => client.call('cancelCapacity', { token, body: { cidrId } }));
      return { message, fee: parseCancellationFee(message) };
    }, (result) => ({ fee: result.fee }));
  }

  terminate(cidrId: string): Promise<TerminateResult> {
    return this.#run('terminate', cidrId, async () => {
      const answer = await this.deps.session.authorized((client, token) =>
        client.call('terminateCyberEvent', { token, params: { cidr_id: cidrId } }),
      );
      return answer.code === 201
        ? { outcome: 'created' as const, eventId: answer.data.id, message: answer.message }
        : { outcome: 'already-triggered' as const, eventId: null, message: answer.message };
    }, (result) => ({ eventId: result.eventId }));
  }

  /** Where the policy's money actions stand, for the signed-in environment. */
  state(cidrId: string): MoneyState {
    return this.deps.lock.state(this.deps.session.status().profileId, cidrId);
  }

  /** Reads the policy back now to settle an unknown outcome ("Check status"), as the user who sent it. */
  check(cidrId: string): Promise<MoneyState> {
    const owner = this.#owner();
    const action = this.deps.lock.uncertainAction(owner.profileId, cidrId);
    if (!action) return Promise.resolve(this.deps.lock.state(owner.profileId, cidrId));
    return this.deps.lock.check(owner, cidrId, this.#checkFor(action, cidrId, owner));
  }

  /**
   * A policy read by any other call (a list, describe, view). The read may have
   * started before a switch of environment or user, so what it saw is never
   * taken as the outcome; it only prompts a read-back of its own, made and
   * checked as the sender.
   */
  observe(cidrId: string, fact: PolicyFact): void {
    const owner = this.#owner();
    const action = this.deps.lock.uncertainAction(owner.profileId, cidrId);
    if (!action || this.#checkFor(action, cidrId, owner).shows(fact) === null) return;
    void this.check(cidrId);
  }

  #run<T>(action: MoneyAction, cidrId: string, send: () => Promise<T>, facts: (answer: T) => ActivityFacts): Promise<T> {
    // Captured when the request is sent: every read-back of its outcome must be made as this owner.
    const owner = this.#owner();
    const check = this.#checkFor(action, cidrId, owner);
    const isDone = async () => check.shows(await check.readBack()) === true;
    const sent = () =>
      sendOnce({ action, cidrId, send, isDone, closing: this.#closing.signal, ...(this.deps.checkDelaysMs ? { checkDelaysMs: this.deps.checkDelaysMs } : {}) });
    // Recorded inside the lock, once per request sent: callers who join it do not record it again.
    const activity = this.deps.activity;
    return this.deps.lock.run(owner, cidrId, action, activity ? () => activity.track(owner, subjectOf(action, cidrId), sent(), facts) : sent);
  }

  #checkFor(action: MoneyAction, cidrId: string, owner: MoneyOwner): OutcomeCheck {
    if (action === 'terminate') {
      return {
        readBack: async () => {
          // Read tolerantly: a view shaped unlike the sandbox's can still settle the outcome.
          const view = await this.#asOwner(owner, () =>
            this.deps.session.authorized((client, token) => client.read('viewCyberPolicy', { token, params: { cidr_id: cidrId } })),
          );
          // Written through before the verdict, as a capacity read-back is (only a view read in full is kept).
          await this.deps.cyberReadBackSeen?.(cidrId, view);
          return { kind: 'cyber', terminated: terminationShown(view) };
        },
        shows: (fact) => (fact.kind === 'cyber' ? fact.terminated : null),
        settled: (done) => this.#settled(owner, action, cidrId, done),
      };
    }
    const outcome = action === 'purchase' ? PURCHASE_OUTCOME : CANCEL_OUTCOME;
    return {
      readBack: async () => {
        const view = await this.#asOwner(owner, () =>
          this.deps.session.authorized((client, token) => client.read('describeCapacity', { token, params: { cidr_id: cidrId } })),
        );
        // Written through before the verdict: whatever the window reads once the action has ended shows it.
        await this.deps.readBackSeen?.(view);
        return { kind: 'capacity', status: view.policyDetails?.policyStatus ?? null };
      },
      shows: (fact) => (fact.kind === 'capacity' ? outcome(fact.status) : null),
      settled: (done) => this.#settled(owner, action, cidrId, done),
    };
  }

  /**
   * Reads as `owner` only: refused when another environment or user is signed
   * in, and discarded when the session changed while the read was under way
   * (even to another sign-in of the same user: its token differs).
   */
  async #asOwner<T>(owner: MoneyOwner, read: () => Promise<T>): Promise<T> {
    const before = this.deps.session.status();
    if (!before.signedIn || before.profileId !== owner.profileId || before.username !== owner.username) throw new SessionSwitched(owner);
    const fact = await read();
    const after = this.deps.session.status();
    if (!after.signedIn || after.profileId !== before.profileId || after.username !== before.username || after.expiresAt !== before.expiresAt) {
      throw new SessionSwitched(owner);
    }
    return fact;
  }

  async #settled(owner: MoneyOwner, action: MoneyAction, cidrId: string, done: boolean): Promise<void> {
    await this.deps.activity?.record(owner, subjectOf(action, cidrId), done ? 'settled-done' : 'settled-not-done');
  }

  #owner(): MoneyOwner {
    const status = this.deps.session.status();
    return { profileId: status.profileId, username: status.username ?? '' };
  }
}

function subjectOf(action: MoneyAction, cidrId: string): ActivitySubject {
  return { policyKind: action === 'terminate' ? 'cyber' : 'capacity', cidrId, action };
}
