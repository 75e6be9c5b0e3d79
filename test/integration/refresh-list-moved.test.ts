import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { syncCapacities } from '../../electron/services/bulk/capacity-sync.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { capacitiesFetchedAt, readKind } from '../../electron/services/replica/replica-reads.js';
import { LIST_KEPT_MOVING, LIST_READS, refreshReplica, type ReplicaSyncDeps } from '../../electron/services/replica/replica-sync.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import { AppFailure } from '../../shared/ipc/result.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { syncDepsReading } from '../support/sync-deps-reading.js';
import { FAST_RETRY } from '../unit/api-client/sandbox-fixture.js';

/**
 * A refresh over a copy that holds the list (issue 25, branch moved12): a list that moves while its pages are read
 * (a page repeated, a delete pulling the later pages back) may leave policies on no page read. Written as it came,
 * the copy lost them and was stamped fresh. The list is read again; still moving, the copy is kept as it was.
 * The service is the sandbox, its list answers played from a model of it so that each move happens at one moment.
 */
const PageQuery = z.object({ page: z.number(), pageSize: z.number(), sortOrder: z.enum(['asc', 'desc']) });
const owner = { profileId: 'moved', username: 'moved@example.com' };
const user = SANDBOX_USERS[0]!;

let dir = '';
let sandbox: SandboxHandle;
let client: ApiClient;
let replica: Replica | null = null;
let token = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-refresh-moved-'));
  sandbox = await startSandbox({ scale: 1_000 });
  client = new ApiClient({ baseUrl: sandbox.url, retry: FAST_RETRY });
  token = (await client.call('signIn', { body: { username: user.username, password: user.password } })).access_token;
  replica = await Replica.open({ dataDir: dir, secrets: new FixedSecretStore(), owner, verifyDelayMs: 0 });
});
afterEach(async () => {
  await replica?.close();
  replica = null;
  await client.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** The refresh's dependencies, the client's reads made by `read`. */
function depsReading(read: ApiClient['read']): ReplicaSyncDeps {
  return syncDepsReading(client, owner, token, read);
}

/** The sandbox's list, oldest first, as the pages send it. */
async function serviceList(): Promise<CapacityRow[]> {
  return (await syncCapacities({ authorized: (work) => work(client, token) })).rows;
}

/**
 * The list's pages answered from `model` (oldest first, as the sandbox holds it); `shape(read, page, model)` may
 * change the model or the page answered. `read` counts the list's reads (each begins with its page 1).
 */
function playing(model: CapacityRow[], shape: (read: number, page: number, rows: CapacityRow[]) => CapacityRow[]): ApiClient['read'] {
  let reads = 0;
  return async (name, options) => {
    const answer = await client.read(name, options);
    if (name !== 'listCapacities') return answer;
    const query = PageQuery.parse((options as { query?: unknown }).query);
    if (query.page === 1) reads += 1;
    const view = query.sortOrder === 'asc' ? model : [...model].reverse();
    const rows = shape(reads, query.page, view.slice((query.page - 1) * query.pageSize, query.page * query.pageSize));
    return { ...answer, data: rows, total: model.length, skipped: [] } as typeof answer;
  };
}

async function storedIds(open: Replica): Promise<string[]> {
  return ((await readKind(open, 'capacities'))?.value ?? []).map((row) => row.cidrId).sort();
}

/** A copy holding the whole list, as a first sync leaves it. */
async function copyOf(list: readonly CapacityRow[]): Promise<{ open: Replica; fetchedAt: string }> {
  const open = replica as Replica;
  await refreshReplica(open, depsReading(client.read.bind(client)), new AbortController().signal, () => undefined);
  expect(await storedIds(open)).toEqual(list.map((row) => row.cidrId).sort());
  const fetchedAt = await capacitiesFetchedAt(open);
  if (!fetchedAt) throw new Error('the first sync stamped no time');
  // The next refresh's stamp is later to the millisecond.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { open, fetchedAt };
}

describe('a refresh over a copy whose list moves while its pages are read', () => {
  it('a page repeated once (the list seems to end there): read again, the copy keeps every policy', async () => {
    const model = await serviceList();
    expect(model.length).toBeGreaterThan(500);
    expect(model.length % 100).toBeGreaterThan(0);
    const { open, fetchedAt } = await copyOf(model);
    const previous = [...model];
    // The first read's last page repeats the one before it: taken for past the list's end, its policies on no page.
    const last = Math.ceil(model.length / 100);
    const read = playing(model, (reads, page, rows) => (reads === 1 && page === last ? previous.slice((last - 2) * 100, (last - 1) * 100) : rows));

    await refreshReplica(open, depsReading(read), new AbortController().signal, () => undefined);

    expect(await storedIds(open)).toEqual(model.map((row) => row.cidrId).sort());
    expect(await capacitiesFetchedAt(open)).not.toBe(fetchedAt);
  }, 120_000);

  it('a policy deleted after the first page (the later pages a place back): read again, only the deleted one goes', async () => {
    const model = await serviceList();
    const { open } = await copyOf(model);
    const deleted = model[50]!;
    const read = playing(model, (reads, page, rows) => {
      // Deleted on the service once page 1 of the first read is answered: page 2 begins a policy later.
      if (reads === 1 && page === 1 && model.includes(deleted)) setImmediate(() => model.splice(model.indexOf(deleted), 1));
      return rows;
    });
    const expected = model.filter((row) => row !== deleted).map((row) => row.cidrId).sort();

    await refreshReplica(open, depsReading(read), new AbortController().signal, () => undefined);

    expect(await storedIds(open)).toEqual(expected);
  }, 120_000);

  it('a list that only grew while read oldest first (a purchase lands past the end) is written from its one read', async () => {
    const model = await serviceList();
    const { open } = await copyOf(model);
    const bought: CapacityRow = { ...model[0]!, cidrId: 'sc_bought_while_read', policyName: 'bought while the refresh read' };
    let reads = 0;
    const read = playing(model, (n, page, rows) => {
      reads = n;
      if (page === 1 && !model.includes(bought)) setImmediate(() => model.push(bought));
      return rows;
    });

    await refreshReplica(open, depsReading(read), new AbortController().signal, () => undefined);

    expect(reads).toBe(1);
    // Every policy it held is kept; the purchase is on the last page, read after it came.
    expect(await storedIds(open)).toEqual(model.map((row) => row.cidrId).sort());
  }, 120_000);

  it(`a list that moves on every read: after ${LIST_READS} reads nothing is written, the copy keeps its list and its time, the sync says why`, async () => {
    const model = await serviceList();
    const { open, fetchedAt } = await copyOf(model);
    const previous = [...model];
    let reads = 0;
    const read = playing(model, (n, page, rows) => {
      reads = n;
      return page === 3 ? previous.slice(100, 200) : rows;
    });
    const phases: string[] = [];

    const failed = await refreshReplica(open, depsReading(read), new AbortController().signal, (p) => phases.push(p.phase)).catch((error: unknown) => error);

    expect(failed).toBeInstanceOf(AppFailure);
    expect((failed as AppFailure).error).toMatchObject({ kind: 'server', message: LIST_KEPT_MOVING });
    expect(reads).toBe(LIST_READS);
    expect(await storedIds(open)).toEqual(model.map((row) => row.cidrId).sort());
    expect(await capacitiesFetchedAt(open)).toBe(fetchedAt);
    // It stopped at the list: no detail, account or DR list was read after it, no 'done' said.
    expect(new Set(phases)).toEqual(new Set(['capacities']));
  }, 120_000);
});
