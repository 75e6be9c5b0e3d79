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
      const subject = describeSubject(input);
      try {
        const value = await handler(input);
        logger.info('audit', `${channel}${subject} succeeded`);
        return value;
      } catch (error) {
        const kind = error instanceof AppFailure ? error.error.kind : 'internal';
        logger.warn('audit', `${channel}${subject} failed (${kind})`);
        throw error;
      }
    };
  }
  return audited as unknown as Handlers;
}

/** The identifiers worth knowing in a support case: policy, customer, profile, user. */
function describeSubject(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const record = input as Record<string, unknown>;
  const parts = ['cidrId', 'customerId', 'profileId', 'username']
    .filter((key) => typeof record[key] === 'string')
    .map((key) => `${key}=${String(record[key])}`);
  return parts.length ? ` [${parts.join(' ')}]` : '';
}
