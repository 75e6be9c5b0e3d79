/**
 * Trust II, items 1, 4 and 5: what the app meets from a service that answers
 * money actions oddly, trickles its answers or sends huge ones. Through the
 * real IPC dispatch and the real services, signed in to an environment whose
 * URL is a hostile proxy (test/support/hostile-proxy.ts) in front of the
 * sandbox, which counts what really reached the service.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberListItem } from '../../shared/api/cyber.js';
import { DEFAULT_MAX_BODY_BYTES, ENDPOINTS } from '../../shared/api/endpoints.js';
import type { MoneyState } from '../../shared/ipc/money.js';
import type { Result } from '../../shared/ipc/result.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { sandboxAccess } from '../support/test-app.js';
import { startHostileProxy, type HostileProxy } from '../support/hostile-proxy.js';
import { value, take, moneyStock } from '../support/ipc-result.js';

/** Each whole call's deadline here: far below the trickled answers' length, far above a normal answer. */
const TOTAL_MS = 1_500;
const PURCHASE = ENDPOINTS.purchaseCapacity.path;
const CANCEL = ENDPOINTS.cancelCapacity.path;
const TERMINATE = ENDPOINTS.terminateCyberEvent.path.replace('{cidr_id}', '');
const DESCRIBE = ENDPOINTS.describeCapacity.path.replace('{cidr_id}', '');

let app: FastApp;
let proxy: HostileProxy;
let ready: CapacityPolicy[];
let active: CapacityPolicy[];
let cyber: CyberListItem[];

function message(result: Result<unknown>): string {
  return result.ok ? '' : result.error.message;
}
const posts = (path: string) => proxy.requests.filter((line) => line.startsWith(`POST ${path}`)).length;

beforeAll(async () => {
  app = await startFastApp({ shortTimeouts: true, totalMs: TOTAL_MS, moneyCheckDelaysMs: [0, 100] });
  proxy = await startHostileProxy(app.services.sandbox.url, sandboxAccess(app.services));
  const hostile = value<{ id: string }>(await app.call('profiles.save', { name: 'Hostile', baseUrl: proxy.url })).id;
  await app.signIn(hostile, ALEX);
  ({ ready, active, cyber } = await moneyStock(app));
});
afterAll(async () => {
  await app.close();
  await proxy.close();
});
beforeEach(async () => {
  await app.controls.resetStats();
  proxy.requests.length = 0;
});
afterEach(() => proxy.setRules([]));

describe('1. a money answer that is not a documented refusal is an unknown outcome, settled by reading back', () => {
  it.each([
    ['201 with a body', 201, '{"ok":true}', {}],
    ['202 with no body', 202, '', {}],
    ['204', 204, '', {}],
    ['a 302 redirect', 302, '', { location: 'https://elsewhere.example/' }],
    ['a 200 that is not JSON', 200, '<html>ok</html>', {}],
  ] as const)('a purchase answered %s: the service bought it, the user is told so, and nothing is sent again', async (_, status, body, headers) => {
    const policy = take(ready);
    proxy.setRules([{ method: 'POST', pathPrefix: PURCHASE, answer: { kind: 'replace', status, body, headers } }]);
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result.ok).toBe(false);
    expect(message(result)).toContain('The policy now shows as purchased: the purchase went through. It was not sent again.');
    expect(value<MoneyState>(await app.call('money.state', { cidrId: policy.cidrId }))).toMatchObject({ state: 'free' });
    expect((await app.controls.stats()).purchaseCapacity).toBe(1);
    expect(posts(PURCHASE)).toBe(1);
  });

  it('a cancel answered 204 and a termination answered 202 are read back too', async () => {
    const policy = take(active);
    const dr = take(cyber);
    proxy.setRules([
      { method: 'POST', pathPrefix: CANCEL, answer: { kind: 'replace', status: 204, body: '' } },
      { method: 'POST', pathPrefix: TERMINATE, answer: { kind: 'replace', status: 202, body: '' } },
    ]);
    const [cancel, terminate] = await Promise.all([
      app.call('capacity.cancel', { cidrId: policy.cidrId }),
      app.call('cyber.terminate', { cidrId: dr.cidrId }),
    ]);
    expect(message(cancel)).toContain('now shows as canceled');
    expect(message(terminate)).toContain('now shows as terminated');
    const stats = await app.controls.stats();
    expect([stats.cancelCapacity, stats.terminateCyberEvent]).toEqual([1, 1]);
  });

  it('a documented refusal (400) stays final: no read-back, the lock is free', async () => {
    const policy = take(active);
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result).toMatchObject({ ok: false, error: { kind: 'rejected' } });
    expect((await app.controls.stats()).describeCapacity).toBe(0);
  });
});

describe('4. every call has a total deadline', () => {
  it('a detail trickled a byte at a time (each byte inside the per-chunk timeout) fails at the deadline', async () => {
    const policy = take(active);
    proxy.setRules([{ method: 'GET', pathPrefix: DESCRIBE, answer: { kind: 'trickle', everyMs: 50 } }]);
    const started = Date.now();
    const result = await app.call('capacity.describe', { cidrId: policy.cidrId });
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(elapsed).toBeLessThan(TOTAL_MS + 1_500);
  }, 10_000);

  it('a trickled purchase reaches the deadline, is read back and shown done, and is not sent again', async () => {
    const policy = take(ready);
    proxy.setRules([{ method: 'POST', pathPrefix: PURCHASE, answer: { kind: 'trickle', everyMs: 50 } }]);
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(message(result)).toContain('the purchase went through. It was not sent again.');
    expect(posts(PURCHASE)).toBe(1);
  }, 10_000);

  it('when the read-backs trickle too, the purchase stays locked, and "Check status" clears it once the service answers', async () => {
    const policy = take(ready);
    proxy.setRules([
      { method: 'POST', pathPrefix: PURCHASE, answer: { kind: 'trickle', everyMs: 50 } },
      { method: 'GET', pathPrefix: DESCRIBE, answer: { kind: 'trickle', everyMs: 50 } },
    ]);
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(message(result)).toContain('Nothing will be sent again until we know');
    expect(value<MoneyState>(await app.call('money.state', { cidrId: policy.cidrId }))).toMatchObject({ state: 'uncertain', action: 'purchase' });
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });

    proxy.setRules([]);
    expect(value<MoneyState>(await app.call('money.check', { cidrId: policy.cidrId }))).toMatchObject({ state: 'free', outcome: 'done' });
    expect(posts(PURCHASE)).toBe(1);
  }, 15_000);
});

describe('5. answers are capped by endpoint', () => {
  const HUGE = 64 * 1024 * 1024;

  it.each([true, false])('a detail of 64 MB (length declared: %s) is refused with a clear error, without reading it all', async (declareLength) => {
    const policy = take(active);
    const before = proxy.hugeBytesSent();
    proxy.setRules([{ method: 'GET', pathPrefix: DESCRIBE, answer: { kind: 'huge', bytes: HUGE, declareLength } }]);
    const result = await app.call('capacity.describe', { cidrId: policy.cidrId });
    expect(result).toMatchObject({ ok: false, error: { kind: 'contract' } });
    expect(message(result)).toBe(
      `The service's answer was larger than the ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MB this app reads for "${ENDPOINTS.describeCapacity.summary}", so it was not read.`,
    );
    // The connection was dropped at the cap: most of the 64 MB never left the server.
    expect(proxy.hugeBytesSent() - before).toBeLessThan(HUGE / 4);
  });

  it('a list page within its (larger) cap reads as before', async () => {
    const page = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { limit: 100 }));
    expect(page.rows.length).toBeGreaterThan(0);
  });

  it('a huge answer to a purchase is an unknown outcome: read back, locked, never sent again', async () => {
    const policy = take(ready);
    proxy.setRules([{ method: 'POST', pathPrefix: PURCHASE, answer: { kind: 'huge', bytes: HUGE, declareLength: false } }]);
    const result = await app.call('capacity.purchase', { cidrId: policy.cidrId });
    expect(result).toMatchObject({ ok: false, error: { kind: 'contract' } });
    expect(message(result)).toContain('does not show as purchased yet');
    expect(await app.call('capacity.purchase', { cidrId: policy.cidrId })).toMatchObject({ ok: false, error: { kind: 'unsettled' } });
    expect(posts(PURCHASE)).toBe(1);
    expect((await app.controls.stats()).describeCapacity).toBeGreaterThanOrEqual(1);
  });
});
