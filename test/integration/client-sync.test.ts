/**
 * The bulk fetch of every capacity page through the real session and client,
 * against a larger sandbox: all of it, in order, with progress; a retried
 * page on a 503; cancellation that stops sending.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYNC_PAGE_SIZE, syncCapacities } from '../../electron/services/bulk/capacity-sync.js';
import type { BulkProgress } from '../../electron/services/bulk/fetch-all-pages.js';
import { AppFailure } from '../../shared/ipc/result.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { sandboxAccess } from '../support/test-app.js';

let app: FastApp;

beforeAll(async () => {
  app = await startFastApp();
  const reset = await fetch(`${app.services.sandbox.url}/sandbox/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sandboxAccess(app.services) },
    body: JSON.stringify({ scale: 3_000 }),
  });
  expect(reset.status).toBe(200);
  await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
  // The replica fills itself after a sign-in: let it finish, so the counts below are this file's own.
  await app.services.replica.refresh.run();
});
afterAll(() => app.close());
beforeEach(() => app.controls.resetStats());
afterEach(() => app.controls.clearFaults());

describe('syncCapacities', () => {
  it('fetches every page at the largest page size, oldest first, with progress up to the total', async () => {
    const progress: BulkProgress[] = [];
    const { rows: all } = await syncCapacities(app.services.session, { onProgress: (p) => progress.push(p) });
    const total = progress[0]?.total ?? -1;
    expect(all).toHaveLength(total);
    expect(new Set(all.map((p) => p.cidrId)).size).toBe(total);
    const created = all.map((p) => Date.parse(p.createdDate ?? ''));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(progress.map((p) => p.fetched)).toEqual([...progress.map((p) => p.fetched)].sort((a, b) => a - b));
    expect(progress.at(-1)).toEqual({ fetched: total, total });
    expect((await app.controls.stats()).listCapacities).toBe(Math.ceil(total / SYNC_PAGE_SIZE));
  });

  it('retries a page that meets a 503, and gets the same result', async () => {
    await app.controls.addFault({ method: 'GET', errorRate: 1, errorStatus: 503, errorCount: 3 });
    const { rows: all } = await syncCapacities(app.services.session);
    const pages = Math.ceil(all.length / SYNC_PAGE_SIZE);
    expect((await app.controls.stats()).listCapacities).toBe(pages + 3);
  });

  it('stops sending when cancelled', async () => {
    const controller = new AbortController();
    await app.controls.addFault({ method: 'GET', latencyMs: 20 });
    const run = syncCapacities(app.services.session, {
      signal: controller.signal,
      concurrency: 2,
      onProgress: (p) => {
        if (p.fetched >= 3 * SYNC_PAGE_SIZE) controller.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(AppFailure);
    await expect(run).rejects.toMatchObject({ error: { message: 'Cancelled.' } });
    const sent = (await app.controls.stats()).listCapacities;
    expect(sent).toBeLessThanOrEqual(5);
  });
});
