import { describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../../shared/api/readers.js';
import { FirstSyncStream, NEWEST_HELD } from '../../../electron/services/replica/first-sync-stream.js';
import type { RewriteRow, RewriteThread } from '../../../electron/services/replica/rewrite-thread.js';
import { heldBytes, parsedPage } from '../../support/heap-held.js';

/** A stream whose thread takes every chunk at once and keeps nothing: what stays held is the stream's own. */
function streamToNowhere(): FirstSyncStream {
  const thread = { add: async (_rows: readonly RewriteRow[]) => undefined } as unknown as RewriteThread;
  return new FirstSyncStream({
    thread,
    rowOf: (policy, rid) => [{ cidr_id: policy.cidrId, rid }, ''],
    commit: async () => undefined,
    abandon: async () => undefined,
  });
}

const page = (first: number, count: number) => parsedPage(first, count) as unknown as CapacityRow[];

describe('FirstSyncStream', () => {
  it('holds each id of a long first sync as a number, not its text (1M: what the collector walked at each major pause)', async () => {
    const policies = 120_000;
    const stream = streamToNowhere();
    const before = heldBytes();
    for (let at = 0; at < policies; at += 1000) await stream.add(page(1_000_001 + at, 1000));
    const perId = (heldBytes() - before) / policies;
    expect(stream.count).toBe(policies);
    // An id's text (32 bytes) in a map of ids beside a list of them in order: about 70 bytes an id; as a number in one map, about 30.
    expect(perId, `${perId.toFixed(1)} bytes held an id`).toBeLessThan(50);
  }, 60_000);

  it('answers the newest ids first, each once, a later copy of one not moving it', async () => {
    const stream = streamToNowhere();
    await stream.add(page(1, 3));
    await stream.add([...page(2, 1), ...page(4, 2)]);
    expect(stream.newest(4)).toEqual(['sc_1', 'sc_2', 'sc_3', 'sc_4']);
    expect(stream.count).toBe(5);
    expect(stream.newest(NEWEST_HELD)).toEqual(['sc_1', 'sc_2', 'sc_3', 'sc_4', 'sc_5']);
  });
});
