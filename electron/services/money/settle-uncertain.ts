import { setTimeout as sleep } from 'node:timers/promises';
import { AppFailure, type AppError } from '../../../shared/ipc/result.js';
import type { MoneyActionName } from '../../../shared/ipc/money.js';
import { ApiFailure } from '../api-client/errors.js';

export type MoneyAction = MoneyActionName;

/** How each action is named in messages: the request, and the policy once it is done. */
export const WORDS: Readonly<Record<MoneyAction, { request: string; done: string }>> = {
  purchase: { request: 'purchase', done: 'purchased' },
  cancel: { request: 'cancellation', done: 'canceled' },
  terminate: { request: 'termination', done: 'terminated (a termination event exists)' },
};

/** What went wrong with the request, in a few words for the message. */
const CAUSES: Partial<Record<AppError['kind'], string>> = {
  timeout: 'the service did not answer in time',
  offline: 'the connection was lost',
  contract: 'its answer could not be read',
};

/**
 * When to re-read the policy after an unanswered money request: at once, then
 * twice more, because a request that timed out on our side may still be
 * carried out a moment later on the service's.
 */
export const DEFAULT_CHECK_DELAYS_MS: readonly number[] = [0, 1_000, 3_000];

export interface MoneyRequest<T> {
  readonly action: MoneyAction;
  readonly cidrId: string;
  /** Sends the request once. */
  readonly send: () => Promise<T>;
  /** Re-reads the policy: true when it shows the action as done. */
  readonly isDone: () => Promise<boolean>;
  readonly checkDelaysMs?: readonly number[];
  /**
   * Aborted when the app closes: no read-back is waited for or made after it. The outcome stays unknown, and
   * recorded (MoneyLock records a request before sending it), so the next start locks the policy and reads it back.
   */
  readonly closing?: AbortSignal;
}

/**
 * The request's outcome is still unknown after the read-backs: the policy's
 * money actions stay locked (see MoneyLock) until a later read-back settles it.
 */
export class UnsettledOutcome extends AppFailure {
  constructor(
    error: AppError,
    /** What is known, without the "nothing is sent" sentence the UI states on its own. */
    readonly detail: string,
  ) {
    super(error);
    this.name = 'UnsettledOutcome';
  }
}

/** Said to every caller whose money action ends with an unknown outcome. */
export const LOCKED_SENTENCE = 'Nothing will be sent again until we know: use Check status to read the policy back.';

/** The request got no clear answer, but a read-back showed it carried out: settled, and not sent again. */
export class DoneAfterAll extends AppFailure {
  constructor(error: AppError) {
    super(error);
    this.name = 'DoneAfterAll';
  }
}

/**
 * Whether a failed money request may have been carried out: no answer (a
 * timeout, a dropped connection, an unreadable answer), or a 5xx, after which
 * a service may have done part or all of the work before failing.
 */
export function mayHaveHappened(error: unknown): error is ApiFailure {
  if (!(error instanceof ApiFailure)) return false;
  if (error.delivery === 'unknown') return true;
  return error.delivery === 'answered' && error.error.kind === 'server' && (error.error.status ?? 0) >= 500;
}

/**
 * Sends a money request exactly once. When its fate is unknown it is never
 * resent: the policy is read back and the user is told what it now shows. If
 * no read-back shows it done, an UnsettledOutcome is thrown so the caller keeps
 * the policy locked.
 */
export async function sendOnce<T>(request: MoneyRequest<T>): Promise<T> {
  try {
    return await request.send();
  } catch (thrown) {
    // Anything but a typed failure of the client (a bug of ours, while or after the answer was read)
    // leaves the outcome unknown: it is settled by reading back, never by letting a resend through.
    const error = thrown instanceof ApiFailure || thrown instanceof AppFailure ? thrown : new ApiFailure({ kind: 'internal', message: 'Capacity Desk could not finish reading the answer.' }, 'unknown');
    if (!mayHaveHappened(error)) throw thrown;
    // The kind stays what happened (timeout, lost connection, unreadable answer, 5xx); the message says where things stand.
    const cause = error.error.kind === 'server' ? `the service reported a problem (HTTP ${error.error.status ?? 500})` : (CAUSES[error.error.kind] ?? 'no clear answer');
    const verdict = await settle(request, cause);
    const failure = (message: string): AppError => ({
      kind: error.error.kind,
      ...(error.error.status !== undefined ? { status: error.error.status } : {}),
      message,
    });
    throw verdict.done
      ? new DoneAfterAll(failure(verdict.message))
      : new UnsettledOutcome(failure(`${verdict.message} ${LOCKED_SENTENCE}`), verdict.message);
  }
}

async function settle<T>(request: MoneyRequest<T>, cause: string): Promise<{ done: boolean; message: string }> {
  const words = WORDS[request.action];
  const lead = `The ${words.request} of policy ${request.cidrId} got no clear answer (${cause}).`;
  const delays = request.checkDelaysMs ?? DEFAULT_CHECK_DELAYS_MS;
  let checked = 0;
  let lastProblem = '';
  const closed = { done: false, message: `${lead} Capacity Desk closed before the policy could be read back: it is read back at the next start.` };
  for (const delay of delays) {
    if (request.closing?.aborted) return closed;
    if (delay > 0 && !(await sleep(delay, true, request.closing ? { signal: request.closing } : {}).catch(() => false))) return closed;
    try {
      if (await request.isDone()) {
        return { done: true, message: `${lead} The policy now shows as ${words.done}: the ${words.request} went through. It was not sent again.` };
      }
      checked += 1;
    } catch (error) {
      const kind = error instanceof AppFailure ? error.error.kind : 'internal';
      lastProblem =
        error instanceof Error && error.name === 'SessionSwitched'
          ? (error as AppFailure).error.message
          : kind === 'unauthorized'
            ? 'your session has ended'
            : (CAUSES[kind] ?? 'the check failed');
    }
  }
  if (checked === 0) {
    return { done: false, message: `${lead} The policy could not be checked either (${lastProblem}).` };
  }
  const seconds = Math.round(delays.reduce((sum, d) => sum + d, 0) / 1000);
  const how = checked === 1 ? 'checked once' : `checked ${checked} times over ${seconds} s`;
  return {
    done: false,
    message: `${lead} The policy does not show as ${words.done} yet (${how}), but the service may still carry it out.`,
  };
}
