import { setTimeout as sleep } from 'node:timers/promises';
import { AppFailure, type AppError } from '../../../shared/ipc/result.js';
import { ApiFailure } from '../api-client/errors.js';

export type MoneyAction = 'purchase' | 'cancel' | 'terminate';

const WORDS: Readonly<Record<MoneyAction, { request: string; done: string }>> = {
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
}

/**
 * Sends a money request exactly once. When its fate is unknown (a timeout, a
 * dropped connection, an answer we cannot read), it is never resent: the
 * policy is read back and the user is told what it now shows.
 */
export async function sendOnce<T>(request: MoneyRequest<T>): Promise<T> {
  try {
    return await request.send();
  } catch (error) {
    if (!(error instanceof ApiFailure) || error.delivery !== 'unknown') throw error;
    // The kind stays what happened (timeout, lost connection, unreadable answer); the message says where things stand.
    throw new AppFailure({
      kind: error.error.kind,
      ...(error.error.status !== undefined ? { status: error.error.status } : {}),
      message: await settle(request, CAUSES[error.error.kind] ?? 'no clear answer'),
    });
  }
}

async function settle<T>(request: MoneyRequest<T>, cause: string): Promise<string> {
  const words = WORDS[request.action];
  const lead = `The ${words.request} of policy ${request.cidrId} got no clear answer (${cause}).`;
  const delays = request.checkDelaysMs ?? DEFAULT_CHECK_DELAYS_MS;
  let checked = 0;
  let lastProblem = '';
  for (const delay of delays) {
    if (delay > 0) await sleep(delay);
    try {
      if (await request.isDone()) return `${lead} The policy now shows as ${words.done}: the ${words.request} went through. It was not sent again.`;
      checked += 1;
    } catch (error) {
      const kind = error instanceof AppFailure ? error.error.kind : 'internal';
      lastProblem = kind === 'unauthorized' ? 'your session has ended' : (CAUSES[kind] ?? 'the check failed');
    }
  }
  if (checked === 0) {
    return `${lead} The policy could not be checked either (${lastProblem}). Open it to see whether it was ${words.done} before trying again; nothing was sent again.`;
  }
  const seconds = Math.round(delays.reduce((sum, d) => sum + d, 0) / 1000);
  return `${lead} The policy does not show as ${words.done} (checked ${checked} time${checked === 1 ? '' : 's'} over ${seconds} s), but the service may still carry it out. Refresh the policy before trying again; nothing was sent again.`;
}
