import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberListItem } from '../../shared/api/cyber.js';
import type { Channel } from '../../shared/ipc/channels.js';
import type { Result } from '../../shared/ipc/result.js';
import { ALEX } from '../unit/api-client/sandbox-fixture.js';

/** The value of an IPC answer a test expects to succeed; a failure stops the test with the app's own message. */
export function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
}

/** The next policy no earlier test of the file has acted on: a money action changes it for good. */
export function take<T>(list: T[]): T {
  const item = list.shift();
  if (!item) throw new Error('the seed ran out of policies for this test');
  return item;
}

/** What the money tests act on, one policy each (see `take`). */
export interface MoneyStock {
  readonly ready: CapacityPolicy[];
  readonly active: CapacityPolicy[];
  /** The DR policies of Alex's first customer that can still be terminated. */
  readonly cyber: CyberListItem[];
}

/** Reads Alex's stock through the app's own channels (he must be signed in). */
export async function moneyStock(app: { call(channel: Channel, input?: unknown): Promise<Result<unknown>> }): Promise<MoneyStock> {
  const list = async (status: string) => value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status, limit: 100 })).rows;
  const ready = await list('READY_FOR_PURCHASE');
  const active = await list('ACTIVE');
  const cyber = value<{ data: CyberListItem[] }>(await app.call('cyber.list', { customerId: ALEX.customers[0]?.cidExt, pageSize: 100 })).data;
  return { ready, active, cyber: cyber.filter((item) => item.terminationTriggered !== true) };
}
