/**
 * The capacity list's rows read from the copy are parsed and checked once, where they are read, and kept by their
 * stored text (issue 25, branch stall18): every list answer's output check parsed all its rows again (a full page:
 * 20 ms of a quiet turn of the host while the person typed during a refresh, 160-400 ms at load 35-40, by
 * keystroke-refresh's tracer). Through the real dispatch and a real copy: a second answer of the same rows checks no
 * row again and hands the same records; a changed record is read and checked afresh; a record that fails the row
 * schema still fails the answer, as before.
 */
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { CapacityRow } from '../../shared/api/readers.js';
import { CONTRACT, type Handlers } from '../../shared/ipc/contract.js';
import type { LocalCapacityQuery } from '../../shared/ipc/offline.js';
import { dispatch } from '../../electron/services/ipc/dispatch.js';
import { checkedOutput } from '../../electron/services/ipc/kept-answers.js';
import { CheckedRecords } from '../../electron/services/replica/checked-records.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { capacityWindow } from '../../electron/services/replica/replica-reads.js';
import { upsertCapacity } from '../../electron/services/replica/replica-writes.js';
import { BENCH_OWNER } from '../../bench/support/bench-current-replica.js';
import { seededCopies } from '../support/seeded-copy.js';
import { syntheticPolicies } from '../support/synthetic-policies.js';

const POLICIES = 300;
const seeded = seededCopies(BENCH_OWNER, () => syntheticPolicies(POLICIES));
afterAll(() => seeded.remove());

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function opened(): Promise<Replica> {
  const { dataDir, secrets } = await seeded.copy();
  const replica = await Replica.open({ dataDir, secrets, owner: BENCH_OWNER });
  cleanup.push(async () => {
    await replica.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  // The slim rows in memory, as the app has them after its launch: the list's queries are answered from them.
  await replica.reading((open) => open.load());
  return replica;
}

/** The capacity list's channel as the app answers it from the copy, through the one dispatch every call takes. */
function handlersOf(replica: Replica): Handlers {
  return {
    'capacity.list': async (query: LocalCapacityQuery) => {
      const window = await capacityWindow(replica, { ...query, sortBy: 'createdDate', sortOrder: 'desc', offset: query.offset ?? 0, limit: query.limit ?? 100 } as never);
      if (!window) throw new Error('no copy');
      return { rows: window.rows, offset: 0, total: window.total, origin: { source: 'replica', fetchedAt: window.fetchedAt }, local: true, skipped: [] };
    },
  } as unknown as Handlers;
}

async function list(replica: Replica, text = ''): Promise<CapacityRow[]> {
  const answer = await dispatch(handlersOf(replica), 'capacity.list', { offset: 0, limit: 100, text });
  if (!answer.ok) throw new Error(`capacity.list failed: ${answer.error.message}`);
  return (answer.value as { rows: CapacityRow[] }).rows;
}

/** Counts the row schema's checks (zod runs each array item through the element's own `run`). */
function countRowChecks(): () => number {
  const run = vi.spyOn(CapacityRow._zod, 'run');
  return () => run.mock.calls.length;
}

it('a second answer of the same rows checks none of them again and hands the very records checked the first time', async () => {
  const replica = await opened();
  const first = await list(replica);
  expect(first).toHaveLength(100);
  const checks = countRowChecks();
  const second = await list(replica);
  expect(checks()).toBe(0);
  expect(second).toHaveLength(100);
  second.forEach((row, i) => expect(row).toBe(first[i]));
  // What they hold is what the row schema makes of them (the check done, once; this parse counted too).
  expect(second).toEqual(first.map((row) => CapacityRow.parse(JSON.parse(JSON.stringify(row)))));
  // A key's rows are mostly the key before's: of a narrower search's records, only those not answered before are checked.
  const checksBefore = checks();
  const narrower = await list(replica, 'reservation 2');
  const answered = new Map(first.map((row) => [row.cidrId, row]));
  const before = narrower.filter((row) => answered.has(row.cidrId));
  expect(before.length).toBeGreaterThan(0);
  before.forEach((row) => expect(row).toBe(answered.get(row.cidrId)));
  expect(checks() - checksBefore).toBe(narrower.length - before.length);
});

it('the records handed are frozen: no reader can change what the check found', async () => {
  const replica = await opened();
  const [row] = await list(replica);
  expect(Object.isFrozen(row)).toBe(true);
  expect(() => {
    (row as { policyName?: string }).policyName = 'changed by a reader';
  }).toThrow(TypeError);
});

it('a record changed in the copy is read and checked afresh, and answered as written', async () => {
  const replica = await opened();
  const first = await list(replica);
  const changed = { ...(first[3] as CapacityRow), policyName: 'renamed on the service' };
  expect(await upsertCapacity(replica, changed as never)).toBe(true);
  const checks = countRowChecks();
  const second = await list(replica);
  const again = second.find((row) => row.cidrId === changed.cidrId);
  expect(again?.policyName).toBe('renamed on the service');
  expect(again).not.toBe(first[3]);
  expect(checks()).toBe(1);
});

it('a record the row schema refuses is not kept, and the answer fails its check as before', () => {
  const records = new CheckedRecords();
  const bad = records.row(JSON.stringify({ cidrId: 42, policyName: 'an id of the wrong kind' }));
  expect(records.size).toBe(0);
  const window = { rows: [bad], offset: 0, total: 1, origin: { source: 'replica', fetchedAt: new Date().toISOString() }, local: true, skipped: [] };
  expect(checkedOutput(CONTRACT['capacity.list'].output, window).success).toBe(false);
});

it('keeps at most its limit of records, the least recently answered dropped first', () => {
  const records = new CheckedRecords(3);
  const bodies = syntheticPolicies(4).map((policy) => JSON.stringify(policy));
  const first = records.row(bodies[0] as string);
  records.row(bodies[1] as string);
  records.row(bodies[2] as string);
  expect(records.row(bodies[0] as string)).toBe(first);
  records.row(bodies[3] as string);
  expect(records.size).toBe(3);
  // The second was the least recently answered: read again, it is a new record; the first is still kept.
  expect(records.row(bodies[0] as string)).toBe(first);
});
