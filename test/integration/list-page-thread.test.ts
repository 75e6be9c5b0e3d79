import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../electron/services/api-client/errors.js';
import { syncCapacities } from '../../electron/services/bulk/capacity-sync.js';
import { ListPageThread } from '../../electron/services/replica/list-page-thread.js';
import { contentHash, storedBody } from '../../electron/services/replica/refresh-diff.js';
import { Replica } from '../../electron/services/replica/replica.js';
import { readKind } from '../../electron/services/replica/replica-reads.js';
import { refreshReplica, type ReplicaSyncDeps } from '../../electron/services/replica/replica-sync.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { startSandbox } from '../../sandbox/server.js';
import { LIST_PAGE_MAX_BODY_BYTES } from '../../shared/api/endpoints.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { AppFailure } from '../../shared/ipc/result.js';

/**
 * A refresh over the copy reads its capacity list pages on the list-page thread (replica/list-page-thread.ts):
 * the main thread hands over each page's bytes and gets back ids, hashes and the rows that differ from the copy.
 * What must hold: the main thread parses no page, the copy ends as a fresh read of the service gives it, and any
 * page (hostile ones too) reads there exactly as ApiClient.read reads it here: the same rows, the same drift, the
 * same error.
 */
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cd-list-page-thread-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a refresh over the copy, its list pages read on the list-page thread (the sandbox over HTTP)', () => {
  it('parses no list page on the main thread, and leaves the copy as a fresh read of the service gives it', async () => {
    const sandbox = await startSandbox({ scale: 2_000 });
    const client = new ApiClient({ baseUrl: sandbox.url });
    const user = SANDBOX_USERS[0]!;
    const token = (await client.call('signIn', { body: { username: user.username, password: user.password } })).access_token;
    const owner = { profileId: 'thread', username: 'thread@example.com' };
    const deps: ReplicaSyncDeps = {
      session: {
        status: () => ({ signedIn: true, profileId: owner.profileId, username: owner.username, keychain: { kind: 'keychain' as const } }),
        authorized: (work) => work(client, token),
      },
      logger: { warn: () => undefined },
    };
    const replica = await Replica.open({ dataDir: dir, secrets: new FixedSecretStore(), owner, verifyDelayMs: 0 });
    const parse = JSON.parse;
    try {
      await refreshReplica(replica, deps, new AbortController().signal, () => undefined);
      const changed = (await client.call('listCapacities', { token, query: { page: 1, pageSize: 5 } })).data;
      for (const policy of changed) {
        const enabled = !policy.capacityConfiguration.autoRenewalEnabled;
        await client.call('setAutoRenewal', { token, body: { cidrId: policy.cidrId, autoRenewalEnabled: enabled, frequency: enabled ? 'ONE_MONTH' : null } });
      }
      // Every JSON.parse of the main thread through the refresh, a list page's body counted (the envelope's list first).
      let pagesParsedHere = 0;
      JSON.parse = function parseWatched(this: unknown, text: string, reviver?: Parameters<typeof JSON.parse>[1]): unknown {
        if (typeof text === 'string' && /^\s*\{\s*"data"\s*:\s*\[/.test(text)) pagesParsedHere += 1;
        return parse.call(JSON, text, reviver);
      } as typeof JSON.parse;
      const summary = await refreshReplica(replica, deps, new AbortController().signal, () => undefined);
      JSON.parse = parse;

      expect(summary.capacities).toBeGreaterThan(1_000);
      // On the main thread, each of the refresh's list pages was parsed here (11 at this size): none now.
      expect(pagesParsedHere).toBe(0);
      const fresh = (await syncCapacities({ authorized: (work) => work(client, token) })).rows;
      const stored = (await readKind(replica, 'capacities'))!.value;
      const byId = (rows: readonly { cidrId: string }[]) => [...rows].sort((a, b) => a.cidrId.localeCompare(b.cidrId));
      expect(byId(stored)).toEqual(byId(fresh));
      // Stored newest first, as a refresh stores the list.
      expect(stored.map((row) => row.cidrId)).toEqual([...fresh].reverse().map((row) => row.cidrId));
      for (const policy of changed) {
        expect(stored.find((row) => row.cidrId === policy.cidrId)?.capacityConfiguration?.autoRenewalEnabled).toBe(!policy.capacityConfiguration.autoRenewalEnabled);
      }
    } finally {
      JSON.parse = parse;
      await replica.close();
      await client.close();
      await sandbox.close();
    }
  }, 180_000);
});

/** A service that answers the capacity list with whatever the test sets: a body, its status, trickled in pieces or not. */
async function scriptedService(): Promise<{ url: string; answer: (next: Answer) => void; close: () => Promise<void> }> {
  let next: Answer = { body: '{}' };
  const server: Server = createServer((_request, response) => {
    const { body, status = 200, trickle = 0, declaredLength } = next;
    response.writeHead(status, { 'content-type': 'application/json', ...(declaredLength ? { 'content-length': String(declaredLength) } : {}) });
    if (!trickle) {
      response.end(body);
      return;
    }
    // Sent in a few pieces, a pause between them (within the client's body timeout).
    const pieces = Math.ceil(body.length / trickle);
    let at = 0;
    const send = () => {
      if (at >= pieces) return void response.end();
      response.write(body.slice(at * trickle, (at + 1) * trickle));
      at += 1;
      setTimeout(send, 20);
    };
    send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answer: (answer) => (next = answer),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Answer {
  readonly body: string;
  readonly status?: number;
  /** Bytes a piece, when sent trickled. */
  readonly trickle?: number;
  /** A Content-Length header larger than the body (the client refuses it before reading). */
  readonly declaredLength?: number;
}

const good = { cidrId: 'sc_kept', policyName: 'kept', cspAccountName: 'acct', policyStatus: 'ACTIVE', pricing: { ourPrice: 10 } };
const page = (data: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ data, page: 1, pageSize: 100, total: data.length, ...extra });

describe('a list page read on the list-page thread reads as ApiClient.read reads it here', () => {
  const answers: Array<[string, Answer]> = [
    ['a page the app expects', { body: page([good, { ...good, cidrId: 'sc_other' }]) }],
    [
      'wrong shapes: an item without an id, one that is not an object, a field of the wrong kind, unknown and hostile field names',
      { body: `{"data":[{"policyName":"no id"},7,{"cidrId":"sc_odd","policyName":12,"pricing":"free","surprise":{"x":1},"__proto__":{"polluted":true},"constructor":"c"}],"page":1,"pageSize":100,"total":3,"unknownTop":true}` },
    ],
    ['an envelope that is not a page (its data not a list)', { body: JSON.stringify({ data: { cidrId: 'sc_x' }, total: 1 }) }],
    ['a body that is not JSON', { body: '{"data":[{"cidrId":"sc_cut' }],
    ['a page trickled in pieces', { body: page(Array.from({ length: 40 }, (_, i) => ({ ...good, cidrId: `sc_t${i}` }))), trickle: 700 }],
    ['a page larger than the app reads (refused on its declared length)', { body: page([good]), declaredLength: LIST_PAGE_MAX_BODY_BYTES + 1 }],
    ['an error status', { body: JSON.stringify({ message: 'down for maintenance' }), status: 404 }],
  ];

  it.each(answers)('%s', async (_name, answer) => {
    const service = await scriptedService();
    const drift: Array<readonly string[]> = [];
    const client = new ApiClient({ baseUrl: service.url, retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 }, onDrift: (_endpoint, found) => drift.push(found) });
    const stored = new Map([[good.cidrId, contentHash(storedBody({ ...good } as never))]]);
    const thread = await ListPageThread.start(stored);
    const outcome = async <T>(read: () => Promise<T>) => {
      drift.length = 0;
      try {
        return { value: await read(), drift: [...drift] };
      } catch (error) {
        return { error: error instanceof ApiFailure ? { ...error.error, delivery: error.delivery } : String(error), drift: [...drift] };
      }
    };
    const query = { page: 1, pageSize: 100 };
    try {
      service.answer(answer);
      const here = await outcome(() => client.read('listCapacities', { query }));
      const there = await outcome(() => client.readWith('listCapacities', { query }, (unread) => thread.read(unread)));

      expect(there.drift).toEqual(here.drift);
      if ('error' in here) {
        expect(there).toEqual(here);
        return;
      }
      if (!('value' in there)) throw new Error(`read on the thread failed: ${JSON.stringify(there.error)}`);
      // The page read there: each row's id and hash, the row itself only where it differs from the copy.
      const { data, ...envelope } = there.value;
      const { data: rows, ...envelopeHere } = here.value;
      expect(envelope).toEqual(envelopeHere);
      expect(data.map(([id, hash]) => [id, hash])).toEqual(rows.map((row) => [row.cidrId, contentHash(storedBody(row))]));
      expect(data.map(([, , row]) => row)).toEqual(rows.map((row) => (stored.get(row.cidrId) === contentHash(storedBody(row)) ? undefined : row)));
      // Read there, not here: every success answer went to the thread.
      expect(thread.readThere).toBe(answer.status === undefined && !answer.declaredLength ? 1 : 0);
    } finally {
      await thread.close();
      await client.close();
      await service.close();
    }
  }, 60_000);
});

describe('a list-page thread that has stopped', () => {
  it('leaves the reading to the main thread: the same page, compared with the same hashes', async () => {
    const body = page([good, { ...good, cidrId: 'sc_new' }]);
    const stored = new Map([[good.cidrId, contentHash(storedBody(JSON.parse(body).data[0]))]]);
    const answer = () => ({ status: 200, body: Buffer.from(body), context: { params: {}, query: {} }, withDrift: true });
    const thread = await ListPageThread.start(stored);
    const there = await thread.read(answer());
    expect(thread.readThere).toBe(1);
    await thread.close();
    const here = await thread.read(answer());
    expect(thread.readThere).toBe(1);
    expect(here).toEqual(there);
    // The row equal to the copy came as its id and hash; the new one with its row.
    expect('value' in here && here.value.data.map((row) => row.length)).toEqual([2, 3]);
  }, 60_000);
});

describe('a list-page thread stopped while it holds a page', () => {
  it('fails that page as the app\'s own failure (kind internal), as any failed refresh ends, not a bare Error', async () => {
    // A page large enough to be still in the thread when it is closed (its bytes went with it: not read here).
    const rows = Array.from({ length: 20_000 }, (_, index) => ({ ...good, cidrId: `sc_${index}`, policyName: `policy ${index} `.repeat(8) }));
    const thread = await ListPageThread.start(new Map());
    await thread.read({ status: 200, body: Buffer.from(page([good])), context: { params: {}, query: {} }, withDrift: true });
    const held = thread.read({ status: 200, body: Buffer.from(page(rows)), context: { params: {}, query: {} }, withDrift: true });
    const outcome = held.then(
      () => 'read',
      (error: unknown) => (error instanceof AppFailure ? error.error.kind : String(error)),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await thread.close();
    expect(await outcome).toBe('internal');
  }, 60_000);
});
