import { beforeAll, describe, expect, it } from 'vitest';
import { ActivityList } from '../../shared/ipc/activity.js';
import { buildApi } from '../../shared/ipc/build-api.js';
import type { Channel } from '../../shared/ipc/channels.js';
import type { Result } from '../../shared/ipc/result.js';
import type { PolicyActivity as PolicyActivityStore } from '../../renderer/stores/policy-activity.svelte.js';

/** Calls the store makes, answered when the test says so (the main process's answers are checked against the contract). */
const pending: Array<{ channel: Channel; input: unknown; answer: (result: Result<unknown>) => void }> = [];

/** Imported once `window.api` exists: the renderer's api module reads it when loaded. */
let PolicyActivity: typeof PolicyActivityStore;

beforeAll(async () => {
  const invoke = (channel: Channel, input: unknown) => new Promise<Result<unknown>>((answer) => pending.push({ channel, input, answer }));
  Object.assign(globalThis, { window: { api: buildApi(invoke, () => () => undefined) } });
  ({ PolicyActivity } = await import('../../renderer/stores/policy-activity.svelte.js'));
});

function list(fee: number, persistent = true): ActivityList {
  return ActivityList.parse({
    persistent,
    entries: [
      {
        policyKind: 'capacity',
        cidrId: 'sc_1',
        action: 'cancel',
        outcome: 'succeeded',
        at: '2026-11-23T02:54:00.000Z',
        username: 'alex.morgan@example.com',
        profileId: 'sandbox',
        reason: null,
        fee,
        price: null,
        autoRenewal: null,
        configured: [],
        eventId: null,
      },
    ],
  });
}

describe('PolicyActivity', () => {
  it('asks for its own policy, and an answer overtaken by a later load is dropped', async () => {
    const activity = new PolicyActivity('capacity', 'sc_1');
    const first = activity.load();
    const second = activity.load();
    expect(pending.map(({ channel, input }) => [channel, input])).toEqual([
      ['activity.list', { policyKind: 'capacity', policyId: 'sc_1' }],
      ['activity.list', { policyKind: 'capacity', policyId: 'sc_1' }],
    ]);
    const [older, newer] = pending.splice(0);
    newer!.answer({ ok: true, value: list(20, false) });
    await second;
    older!.answer({ ok: true, value: list(10) });
    await first;
    expect(activity.entries.map((entry) => entry.fee)).toEqual([20]);
    expect(activity.persistent).toBe(false);
    expect(activity.loaded).toBe(true);
    expect(activity.loading).toBe(false);
  });

  it('keeps what it showed when a reload fails, and says why', async () => {
    const activity = new PolicyActivity('cyber', 'constructor');
    const loaded = activity.load();
    pending.splice(0)[0]!.answer({ ok: true, value: list(5) });
    await loaded;
    const failed = activity.load();
    pending.splice(0)[0]!.answer({ ok: false, error: { kind: 'internal', message: 'Your offline copy could not be read right now.' } });
    await failed;
    expect(activity.entries).toHaveLength(1);
    expect(activity.error?.message).toBe('Your offline copy could not be read right now.');
  });
});
