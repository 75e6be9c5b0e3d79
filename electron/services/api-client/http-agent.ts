import { Agent, type Dispatcher } from 'undici';

/**
 * One connection pool for the whole app, with every timeout set on purpose:
 * a person is waiting on each of these requests.
 */
export const DEFAULT_TIMEOUTS = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
} as const;

export interface AgentTimeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
}

export function createHttpAgent(timeouts: AgentTimeouts = DEFAULT_TIMEOUTS): Dispatcher {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 10_000,
    connections: 16,
  });
}
