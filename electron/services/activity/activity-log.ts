import { CONFIGURABLE_FIELDS } from '../../../shared/api/contract-choices.js';
import type { ConfigureRequest } from '../../../shared/api/capacity.js';
import { ActivityEntry, type ActivityAction, type ActivityOutcome, type ActivityPolicyKind } from '../../../shared/own-data/activity.js';
import type { ActivityList, StatedFees } from '../../../shared/ipc/activity.js';
import { latestStatedFees } from '../../../shared/money/stated-fees.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { OwnDataService } from '../own-data/own-data-service.js';
import type { Owner } from '../platform/owner.js';
import { DoneAfterAll, UnsettledOutcome, mayHaveHappened } from '../money/settle-uncertain.js';
import type { SessionService } from '../session/session-service.js';

/** Who sent a request: the environment and user signed in when it was sent (the answer may come after a switch). */
export type ActivityOwner = Owner;

/** What an entry says beyond its outcome: the fee, price, renewal setting, configured fields or DR event. */
export type ActivityFacts = Partial<Pick<ActivityEntry, 'fee' | 'price' | 'autoRenewal' | 'configured' | 'eventId'>>;

export interface ActivitySubject {
  readonly policyKind: ActivityPolicyKind;
  readonly cidrId: string;
  readonly action: ActivityAction;
}

export interface ActivityLogDeps {
  readonly ownData: Pick<OwnDataService, 'appendActivities' | 'activity' | 'activityOfAction'>;
  readonly session: Pick<SessionService, 'status'>;
  /** Where an entry that could not be written is reported: recording never fails the action it records. */
  readonly report?: (error: unknown) => void;
  readonly now?: () => Date;
}

/**
 * The per-policy record of what this app did (purchase, configuration,
 * renewal, cancellation with its fee, DR termination), kept in the own data
 * of the user who sent each action (never in the disposable replica), so the
 * detail shows it offline too and a rebuilt copy keeps it. Entries are written
 * where each action's answer is known; the fee of a cancellation would
 * otherwise be gone once its result dialog closes.
 */
export class ActivityLog {
  readonly #deps: ActivityLogDeps;

  constructor(deps: ActivityLogDeps) {
    this.#deps = deps;
  }

  /** The signed-in environment and user, captured when a request is sent; null when no one is signed in. */
  owner(): ActivityOwner | null {
    const status = this.#deps.session.status();
    return status.signedIn && status.username ? { profileId: status.profileId, username: status.username } : null;
  }

  /** Writes one entry into the owner's own data. Never throws: a failure is reported and the action's answer stands. */
  record(owner: ActivityOwner | null, subject: ActivitySubject, outcome: ActivityOutcome, facts: ActivityFacts & { reason?: ActivityEntry['reason'] } = {}): Promise<void> {
    return this.recordAll(owner, [{ subject, outcome, facts }]);
  }

  /** Writes entries into the owner's own data together (a quote's, one per policy): all or none. Never throws, as `record`. */
  async recordAll(
    owner: ActivityOwner | null,
    items: ReadonlyArray<{ subject: ActivitySubject; outcome: ActivityOutcome; facts?: ActivityFacts & { reason?: ActivityEntry['reason'] } }>,
  ): Promise<void> {
    if (!owner || owner.username === '' || items.length === 0) return;
    try {
      const at = (this.#deps.now?.() ?? new Date()).toISOString();
      const entries = items.map(({ subject, outcome, facts = {} }) =>
        ActivityEntry.parse({
          ...subject,
          outcome,
          at,
          username: owner.username,
          profileId: owner.profileId,
          reason: facts.reason ?? null,
          fee: facts.fee ?? null,
          price: facts.price ?? null,
          autoRenewal: facts.autoRenewal ?? null,
          configured: facts.configured ?? [],
          eventId: facts.eventId ?? null,
        }),
      );
      // Into the sender's own data, also when someone else signed in before the answer came.
      await this.#deps.ownData.appendActivities(entries);
    } catch (error) {
      this.#deps.report?.(error);
    }
  }

  /**
   * Records how `work` ends, then hands its answer or failure on unchanged.
   * Called once per request actually sent (money actions: inside their lock,
   * so callers who join one request do not record it twice).
   */
  async track<T>(
    owner: ActivityOwner | null,
    subject: ActivitySubject,
    work: Promise<T>,
    facts: (answer: T) => ActivityFacts = () => ({}),
    /** What was asked for, known before the answer (a configuration's fields, a renewal setting): kept whatever the outcome. */
    asked: ActivityFacts = {},
  ): Promise<T> {
    let answer: T;
    try {
      answer = await work;
    } catch (error) {
      await this.record(owner, subject, failureOutcome(error), { ...asked, reason: reasonOf(error) });
      throw error;
    }
    await this.record(owner, subject, 'succeeded', { ...asked, ...facts(answer) });
    return answer;
  }

  /** A policy's record, newest first, from the own data of whoever is signed in (or reviewed offline). */
  list(policyKind: ActivityPolicyKind, cidrId: string): Promise<ActivityList> {
    return this.#deps.ownData.activity(policyKind, cidrId);
  }

  /** Every capacity policy's latest stated cancellation fee, in one read (the table's Fee column, the overview). */
  async statedFees(): Promise<StatedFees> {
    return latestStatedFees(await this.#deps.ownData.activityOfAction('capacity', 'cancel'));
  }
}

/** How a failed request ended: carried out after all, unknown, or not done. */
function failureOutcome(error: unknown): ActivityOutcome {
  if (error instanceof DoneAfterAll) return 'settled-done';
  if (error instanceof UnsettledOutcome || mayHaveHappened(error)) return 'unknown';
  return 'not-done';
}

function reasonOf(error: unknown): ActivityEntry['reason'] {
  if (error instanceof AppFailure) return { kind: error.error.kind, message: error.error.message };
  return { kind: 'internal', message: 'Capacity Desk could not finish the request.' };
}

/** The fields a configuration sent, with their values, in the form's order. */
export function configuredFields(request: ConfigureRequest): ActivityEntry['configured'] {
  return CONFIGURABLE_FIELDS.flatMap((field) => {
    const value = request[field];
    return value === undefined ? [] : [{ field, value: String(value) }];
  });
}
