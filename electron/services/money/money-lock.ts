import type { MoneyState } from '../../../shared/ipc/money.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { PendingMoney } from './pending-money-file.js';
import { DoneAfterAll, UnsettledOutcome, WORDS, type MoneyAction } from './settle-uncertain.js';

/** What reading a policy back says: a capacity policy's status, or whether a DR policy has its termination event. */
export type PolicyFact =
  | { readonly kind: 'capacity'; readonly status: string | null }
  | { readonly kind: 'cyber'; readonly terminated: boolean | null };

/** How to learn, by reading the policy back, whether an action was carried out. */
export interface OutcomeCheck {
  /** Reads the policy back now (describe or view). */
  readonly readBack: () => Promise<PolicyFact>;
  /** true: the fact shows the action done; false: not done; null: the fact says nothing about it. */
  readonly shows: (fact: PolicyFact) => boolean | null;
  /** Told once, before the lock is freed, when a read-back settles the outcome: true done, false not done (never throws). */
  readonly settled?: (done: boolean) => Promise<void>;
}

/**
 * Who sent a money request: the environment (profile) and the user signed in
 * when it was sent. Only a read-back by the same user in the same environment
 * can settle it: another environment may hold a different policy with the same
 * id, and another user may see it differently.
 */
export interface MoneyOwner {
  readonly profileId: string;
  readonly username: string;
}

interface InFlight {
  readonly state: 'in-flight';
  readonly action: MoneyAction;
  readonly since: number;
  readonly username: string;
  /** The one request's outcome; every caller asking for the same action meanwhile gets it. */
  readonly outcome: Promise<unknown>;
}

interface Uncertain {
  readonly state: 'uncertain';
  readonly action: MoneyAction;
  readonly since: number;
  readonly finalAfter: number;
  readonly username: string;
  message: string;
  /** A read-back under way; parallel checks join it. */
  checking: Promise<MoneyState> | null;
}

type Entry = InFlight | Uncertain;

/**
 * How long after an unanswered request a read-back that does not show it done
 * is taken as final. A service may still carry out a request for a while after
 * we stopped waiting for its answer (it was queued, or slow); a minute is well
 * beyond any answer time we wait for, so a purchase not seen by then was not made.
 */
export const DEFAULT_FINAL_AFTER_MS = 60_000;

export interface MoneyLockOptions {
  readonly finalAfterMs?: number;
  /** Told every change, so every open window can update its buttons. */
  readonly onChange?: (state: MoneyState) => void;
  readonly now?: () => number;
  /** Where requests not yet settled are recorded, so a restart keeps them locked (pending-money-file.ts). */
  readonly record?: { save(entries: () => PendingMoney[]): Promise<void> };
  /** What an earlier run left unsettled: locked until a read-back settles each. */
  readonly restored?: readonly PendingMoney[];
  /** Set when the record could not be read and it cannot be told which policies it named: every money action is refused. */
  readonly blocked?: string | null;
  /** Told when the record could not be written after a change. */
  readonly onRecordFailure?: (error: unknown) => void;
}

/**
 * The main process's one record of each policy's money actions (purchase,
 * cancel, DR termination), so it covers every window, tab and IPC caller.
 *
 * in flight → free (answered), or in flight → uncertain (no clear answer) →
 * free once a read-back shows the outcome. While in flight or uncertain,
 * nothing else is sent for the policy: the same action asked again joins the
 * request in flight (so N parallel calls send exactly one request and every
 * caller learns its outcome, rather than some learning only "wait"); any other
 * is refused with a typed error.
 */
export class MoneyLock {
  /** profile id → policy id → entry. Maps, because both ids are user-controlled text. */
  readonly #entries = new Map<string, Map<string, Entry>>();
  readonly #finalAfterMs: number;
  readonly #onChange: (state: MoneyState) => void;
  readonly #now: () => number;
  readonly #record: MoneyLockOptions['record'];
  readonly #blocked: string | null;
  readonly #onRecordFailure: (error: unknown) => void;
  /** Set as close begins: nothing more is sent or read back. */
  #closing = false;
  /** Set once close has waited for what was under way: nothing more is recorded. */
  #closed = false;
  /** Requests and read-backs under way, and writes of the record: close waits for them. */
  readonly #running = new Set<Promise<unknown>>();

  constructor(options: MoneyLockOptions = {}) {
    this.#finalAfterMs = options.finalAfterMs ?? DEFAULT_FINAL_AFTER_MS;
    this.#onChange = options.onChange ?? (() => undefined);
    this.#now = options.now ?? Date.now;
    this.#record = options.record;
    this.#blocked = options.blocked ?? null;
    this.#onRecordFailure = options.onRecordFailure ?? (() => undefined);
    for (const entry of options.restored ?? []) {
      const words = WORDS[entry.action];
      this.#put(entry.profileId, entry.cidrId, {
        state: 'uncertain',
        action: entry.action,
        since: entry.since,
        finalAfter: entry.since + this.#finalAfterMs,
        username: entry.username,
        checking: null,
        message:
          `Capacity Desk was closed before the ${words.request} of this policy, sent ${new Date(entry.since).toISOString()}, was confirmed. ` +
          'Use Check status to read the policy back.',
      });
    }
  }

  /** Everything not settled, as recorded on disk (a request in flight counts: the app may stop before its answer). */
  #pending(): PendingMoney[] {
    const out: PendingMoney[] = [];
    for (const [profileId, policies] of this.#entries) {
      for (const [cidrId, entry] of policies) out.push({ profileId, username: entry.username, cidrId, action: entry.action, since: entry.since });
    }
    return out;
  }

  #saveRecord(): void {
    if (this.#closed || !this.#record) return;
    this.#track(this.#record.save(() => this.#pending()).catch((error: unknown) => this.#onRecordFailure(error)));
  }

  #track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined).finally(() => this.#running.delete(settled));
    this.#running.add(settled);
  }

  /**
   * The app closes: nothing more is sent or read back, and once what is under way has ended (a request's
   * read-backs stop at once: MoneyActions.close) and its change is recorded, nothing more is written. What is
   * not settled then stays in the record, so the next start locks it and reads it back.
   */
  async close(): Promise<void> {
    this.#closing = true;
    while (this.#running.size > 0) await Promise.all(this.#running);
    this.#closed = true;
  }

  /**
   * Runs `work` (which sends the request once) unless the policy's money
   * actions are busy or locked. `work` throws UnsettledOutcome when the
   * outcome is still unknown after its own read-backs: the policy stays locked.
   */
  run<T>(owner: MoneyOwner, cidrId: string, action: MoneyAction, work: () => Promise<T>): Promise<T> {
    const { profileId, username } = owner;
    if (this.#blocked) return Promise.reject(new AppFailure({ kind: 'unsettled', message: this.#blocked }));
    if (this.#closing) return Promise.reject(new AppFailure({ kind: 'cancelled', message: 'Capacity Desk is closing: nothing was sent.' }));
    const current = this.#get(profileId, cidrId);
    if (current?.state === 'in-flight') {
      // Only this entry's `work` produced the outcome, and only for this action, so it has this action's type.
      if (current.action === action) return current.outcome as Promise<T>;
      return Promise.reject(
        new AppFailure({
          kind: 'conflict',
          message: `A ${WORDS[current.action].request} of this policy is being sent. Nothing else is sent for it until its outcome is known.`,
        }),
      );
    }
    if (current?.state === 'uncertain') {
      return Promise.reject(
        new AppFailure({
          kind: 'unsettled',
          message: `We could not confirm whether the ${WORDS[current.action].request} of this policy went through, so nothing is sent for it until we know. Use Check status to read the policy back.`,
        }),
      );
    }
    const since = this.#now();
    // Recorded on disk before the request is sent: a crash while it is on its way leaves the policy locked.
    const recorded = this.#record
      ? this.#record.save(() => this.#pending()).catch((error: unknown) => {
          this.#onRecordFailure(error);
          throw new NotRecorded();
        })
      : Promise.resolve();
    const outcome = recorded
      .then(work)
      .then(
        (value) => {
          // Answered: nothing was read back, so there is no read-back outcome to report.
          this.#settle(profileId, cidrId, action, null, '');
          return value;
        },
        (error: unknown) => {
          if (error instanceof UnsettledOutcome) {
            this.#set(profileId, cidrId, {
              state: 'uncertain',
              action,
              since,
              finalAfter: since + this.#finalAfterMs,
              username,
              message: error.detail,
              checking: null,
            });
          } else if (error instanceof NotRecorded) {
            this.#settle(profileId, cidrId, action, null, '');
            throw new AppFailure({
              kind: 'internal',
              message: `Nothing was sent: Capacity Desk could not record the ${WORDS[action].request} in its data folder first (it does so, so that a crash cannot lead to a second one). Check the disk and try again.`,
            });
          } else {
            // Answered (a refusal is final), or settled by the read-backs: free again.
            if (error instanceof DoneAfterAll) this.#settle(profileId, cidrId, action, 'done', error.message);
            else this.#settle(profileId, cidrId, action, null, '');
          }
          throw error;
        },
      );
    this.#set(profileId, cidrId, { state: 'in-flight', action, since, username, outcome });
    this.#track(outcome);
    return outcome;
  }

  state(profileId: string, cidrId: string): MoneyState {
    const entry = this.#get(profileId, cidrId);
    if (!entry && this.#blocked) {
      return { profileId, cidrId, state: 'uncertain', action: null, since: null, finalAfter: null, outcome: null, message: this.#blocked };
    }
    return this.#stateOf(profileId, cidrId, entry);
  }

  /** The action whose outcome is unknown for this policy, if any (so the caller can say how to read it back). */
  uncertainAction(profileId: string, cidrId: string): MoneyAction | null {
    const entry = this.#get(profileId, cidrId);
    return entry?.state === 'uncertain' ? entry.action : null;
  }

  /**
   * Reads the policy back now when its outcome is unknown, and settles it if
   * the read-back shows the outcome. `check` must read as `owner`; a read by
   * anyone but the user who sent the request settles nothing.
   */
  check(owner: MoneyOwner, cidrId: string, check: OutcomeCheck): Promise<MoneyState> {
    const { profileId } = owner;
    const entry = this.#get(profileId, cidrId);
    if (entry?.state !== 'uncertain' || this.#closing) return Promise.resolve(this.#stateOf(profileId, cidrId, entry));
    if (entry.username !== owner.username) {
      entry.message =
        `The ${WORDS[entry.action].request} of this policy was sent by ${entry.username} and its outcome is not known yet. ` +
        `Only ${entry.username}, signed in to this environment, can check it: nothing is sent for this policy until then.`;
      return Promise.resolve(this.#changed(profileId, cidrId, entry));
    }
    if (!entry.checking) {
      entry.checking = this.#readBack(profileId, cidrId, entry, check).finally(() => {
        entry.checking = null;
      });
      this.#track(entry.checking);
    }
    return entry.checking;
  }

  async #readBack(profileId: string, cidrId: string, entry: Uncertain, check: OutcomeCheck): Promise<MoneyState> {
    let fact: PolicyFact;
    try {
      fact = await check.readBack();
    } catch (error) {
      if (this.#get(profileId, cidrId) !== entry) return this.state(profileId, cidrId);
      const reason = error instanceof AppFailure ? error.error.message : 'the check failed';
      entry.message = `The policy could not be read to check the ${WORDS[entry.action].request} (${reason}). Try Check status again in a moment.`;
      return this.#changed(profileId, cidrId, entry);
    }
    return this.#apply(profileId, cidrId, entry, check, fact);
  }

  async #apply(profileId: string, cidrId: string, entry: Uncertain, check: OutcomeCheck, fact: PolicyFact): Promise<MoneyState> {
    const shown = check.shows(fact);
    if (shown === null || this.#get(profileId, cidrId) !== entry) return this.state(profileId, cidrId);
    const words = WORDS[entry.action];
    if (shown) {
      if (!(await this.#told(profileId, cidrId, entry, check, true))) return this.state(profileId, cidrId);
      return this.#settle(profileId, cidrId, entry.action, 'done', `The policy now shows as ${words.done}: the ${words.request} went through. It was not sent again.`);
    }
    const now = this.#now();
    if (now >= entry.finalAfter) {
      if (!(await this.#told(profileId, cidrId, entry, check, false))) return this.state(profileId, cidrId);
      const seconds = Math.round((now - entry.since) / 1000);
      return this.#settle(
        profileId,
        cidrId,
        entry.action,
        'not-done',
        `The policy still does not show as ${words.done}, ${seconds} s after the ${words.request} was sent: it did not go through. You can try again.`,
      );
    }
    const wait = Math.ceil((entry.finalAfter - now) / 1000);
    entry.message =
      `Checked just now: the policy does not show as ${words.done} yet, but the service may still carry out the ${words.request}. ` +
      `If it still does not show in about ${wait} s, it did not go through and you can try again.`;
    return this.#changed(profileId, cidrId, entry);
  }

  /** Tells the check's owner how the outcome settled (the activity record) before anyone hears the lock is free; false when the entry moved on meanwhile. */
  async #told(profileId: string, cidrId: string, entry: Uncertain, check: OutcomeCheck, done: boolean): Promise<boolean> {
    await check.settled?.(done);
    return this.#get(profileId, cidrId) === entry;
  }

  #settle(profileId: string, cidrId: string, action: MoneyAction, outcome: 'done' | 'not-done' | null, message: string): MoneyState {
    const policies = this.#entries.get(profileId);
    policies?.delete(cidrId);
    if (policies?.size === 0) this.#entries.delete(profileId);
    const state: MoneyState = { profileId, cidrId, state: 'free', action, since: null, finalAfter: null, outcome, message };
    this.#saveRecord();
    this.#onChange(state);
    return state;
  }

  #set(profileId: string, cidrId: string, entry: Entry): void {
    this.#put(profileId, cidrId, entry);
    this.#changed(profileId, cidrId, entry);
  }

  #put(profileId: string, cidrId: string, entry: Entry): void {
    let policies = this.#entries.get(profileId);
    if (!policies) {
      policies = new Map();
      this.#entries.set(profileId, policies);
    }
    policies.set(cidrId, entry);
  }

  #changed(profileId: string, cidrId: string, entry: Entry): MoneyState {
    const state = this.#stateOf(profileId, cidrId, entry);
    this.#onChange(state);
    return state;
  }

  #get(profileId: string, cidrId: string): Entry | undefined {
    return this.#entries.get(profileId)?.get(cidrId);
  }

  #stateOf(profileId: string, cidrId: string, entry: Entry | undefined): MoneyState {
    if (!entry) return { profileId, cidrId, state: 'free', action: null, since: null, finalAfter: null, outcome: null, message: '' };
    const since = new Date(entry.since).toISOString();
    if (entry.state === 'in-flight') {
      return {
        profileId,
        cidrId,
        state: 'in-flight',
        action: entry.action,
        since,
        finalAfter: null,
        outcome: null,
        message: `A ${WORDS[entry.action].request} of this policy is being sent.`,
      };
    }
    return {
      profileId,
      cidrId,
      state: 'uncertain',
      action: entry.action,
      since,
      finalAfter: new Date(entry.finalAfter).toISOString(),
      outcome: null,
      message: entry.message,
    };
  }
}

/** The record of pending requests could not be written before sending: nothing is sent. */
class NotRecorded extends Error {
  constructor() {
    super('the pending money record could not be written');
    this.name = 'NotRecorded';
  }
}
