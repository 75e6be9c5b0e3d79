import { createHmac, randomBytes } from 'node:crypto';
import { CHANNELS } from '../../../shared/ipc/channels.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import { isAudited, type Handlers } from '../../../shared/ipc/contract.js';
import type { Logger } from './file-logger.js';

/**
 * Logs every state-changing call (money actions above all) with its outcome,
 * naming the policy or profile it concerned and nothing else from its input:
 * inputs can hold passwords, so they are never logged whole.
 */
export function withAuditLog(handlers: Handlers, logger: Logger): Handlers {
  const audited: Record<string, (input: unknown) => Promise<unknown>> = { ...(handlers as unknown as Record<string, (input: unknown) => Promise<unknown>>) };
  for (const channel of CHANNELS) {
    if (!isAudited(channel)) continue;
    const handler = audited[channel] as (input: unknown) => Promise<unknown>;
    audited[channel] = async (input: unknown) => {
      try {
        const value = await handler(input);
        logger.info('audit', `${channel}${describeSubject(input, 'accepted')} succeeded`);
        return value;
      } catch (error) {
        const kind = error instanceof AppFailure ? error.error.kind : 'internal';
        logger.warn('audit', `${channel}${describeSubject(input, 'refused')} failed (${kind})`);
        throw error;
      }
    };
  }
  return audited as unknown as Handlers;
}

/** Keyed per run, so a logged mark tells attempts apart in one log but cannot be matched against guesses. */
const USERNAME_MARK_KEY = randomBytes(32);

/**
 * The identifiers worth knowing in a support case: policy, customer, profile, user.
 * A username the call did not accept is not logged: people type passwords
 * there by mistake. A short keyed mark and its length stand in for it.
 */
function describeSubject(input: unknown, outcome: 'accepted' | 'refused'): string {
  if (!input || typeof input !== 'object') return '';
  const record = input as Record<string, unknown>;
  const parts = ['cidrId', 'customerId', 'profileId', 'username']
    .filter((key) => typeof record[key] === 'string')
    .map((key) => {
      const text = String(record[key]);
      return key === 'username' && outcome === 'refused' ? `username=${usernameMark(text)}` : `${key}=${text}`;
    });
  return parts.length ? ` [${parts.join(' ')}]` : '';
}

function usernameMark(username: string): string {
  const mark = createHmac('sha256', USERNAME_MARK_KEY).update(username).digest('hex').slice(0, 8);
  return `#${mark}(${[...username].length} chars)`;
}
