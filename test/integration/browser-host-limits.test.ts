import { mkdtemp, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/host-server.js';
import { DEFAULT_MAX_INPUT_BYTES, maxInputBytes } from '../../shared/ipc/contract.js';
import { AppEvents } from '../../electron/services/events.js';
import { generateDataset } from '../../sandbox/seed/generate.js';
import { stubHandlers } from '../support/stub-handlers.js';

/**
 * What the browser host holds in memory for request bodies: each channel's
 * limit fits its largest legitimate input and no more, and all requests
 * together stay within one budget.
 */
let host: BrowserHost | null = null;
let saveCsvCalls = 0;

afterEach(async () => {
  await host?.close();
  host = null;
  saveCsvCalls = 0;
});

async function start(bodyBudget?: number): Promise<{ host: BrowserHost; cookie: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cd-limits-'));
  await writeFile(join(dir, 'api-shim.js'), '');
  const handlers = stubHandlers({
    'files.saveCsv': async (input) => {
      saveCsvCalls += 1;
      return { outcome: 'download', fileName: 'x.csv', content: '', rows: input.rows.length };
    },
    'session.status': async () => ({ signedIn: false, profileId: 'sandbox', keychain: { kind: 'memory', reason: 'test' } }),
  });
  host = await startBrowserHost({ handlers, events: new AppEvents(), rendererDir: dir, shimFile: join(dir, 'api-shim.js'), ...(bodyBudget ? { bodyBudget } : {}) });
  const launch = new URL(host.newLaunchUrl());
  const answer = await post(host, launch.pathname + launch.search, '', 'GET');
  expect(answer.status).toBe(200);
  return { host, cookie: String(answer.headers['set-cookie']).split(';')[0] as string };
}

function post(
  target: BrowserHost,
  path: string,
  body: string,
  method = 'POST',
  cookie = '',
  /** Sends this much of the body, then the rest once it resolves: uploads that overlap for sure. */
  pauseAfter?: { bytes: number; until: Promise<void> },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        path,
        method,
        // A connection of its own each time. Node's global agent keeps connections alive, and the host closes an idle
        // one after 5 s: one left idle while a test builds its large body (seconds under load) was reused just as the
        // host closed it, and the upload was reset (ECONNRESET, met once in a full run).
        agent: false,
        headers: { host: new URL(target.origin).host, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    // A refused upload may be cut off mid-way: that is an answer too.
    req.on('error', (error) => (method === 'POST' ? resolve({ status: -1, headers: {}, body: String(error) }) : reject(error)));
    if (!pauseAfter) return void req.end(body);
    req.write(body.slice(0, pauseAfter.bytes));
    void pauseAfter.until.then(() => req.end(body.slice(pauseAfter.bytes)));
  });
}

/** The widest export a person can make: every field of every policy, at the contract's row limit. */
function largestLegitimateExport(): string {
  const dataset = generateDataset({ seed: 7, scale: 20_000, anchorMs: Date.UTC(2026, 10, 22) });
  const records = [...dataset.capacities.values()].slice(0, 20_000);
  const flat = (value: unknown, out: (string | number | boolean | null)[] = []) => {
    if (value !== null && typeof value === 'object') for (const v of Object.values(value)) flat(v, out);
    else out.push(value as string | number | boolean | null);
    return out;
  };
  const rows = records.map((r) => flat(r).slice(0, 50));
  const header = (rows[0] ?? []).map((_, i) => `Column ${i + 1}`);
  expect(rows).toHaveLength(20_000);
  return JSON.stringify({ input: { suggestedName: 'capacity-policies', header, rows } });
}

describe('browser host request bodies', () => {
  it('accepts the largest legitimate export, which fits its channel limit', async () => {
    const { host: h, cookie } = await start();
    const body = largestLegitimateExport();
    expect(Buffer.byteLength(body)).toBeLessThan(maxInputBytes('files.saveCsv'));
    const answer = await post(h, '/ipc/files.saveCsv', body, 'POST', cookie);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, value: { rows: 20_000 } });
  });

  it('refuses a body over its channel limit without calling the handler', async () => {
    const { host: h, cookie } = await start();
    const oversized = JSON.stringify({ input: { suggestedName: 'x', header: ['a'], rows: [['x'.repeat(DEFAULT_MAX_INPUT_BYTES)]] } });
    // Over the small default limit, but under saveCsv's: accepted there, refused on an ordinary channel.
    const ordinary = await post(h, '/ipc/session.status', oversized, 'POST', cookie);
    expect(JSON.parse(ordinary.body)).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringMatching(/larger than Capacity Desk accepts/) } });
    const huge = JSON.stringify({ input: { rows: ['x'.repeat((maxInputBytes('files.saveCsv')) + 1)] } });
    const refused = await post(h, '/ipc/files.saveCsv', huge, 'POST', cookie);
    if (refused.status !== -1) expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(saveCsvCalls).toBe(0);
  });

  it('holds no more than its budget at once: parallel large bodies past it are refused, not buffered', async () => {
    const budget = 3 * 1024 * 1024;
    const { host: h, cookie } = await start(budget);
    const body = JSON.stringify({ input: { suggestedName: 'x', header: ['a'], rows: Array.from({ length: 1_100 }, () => ['y'.repeat(1_000)]) } });
    expect(Buffer.byteLength(body)).toBeGreaterThan(1024 * 1024);
    let release = () => undefined as void;
    const until = new Promise<void>((resolve) => (release = resolve));
    let answered = 0;
    const pending = Array.from({ length: 8 }, () =>
      post(h, '/ipc/files.saveCsv', body, 'POST', cookie, { bytes: 700_000, until }).finally(() => (answered += 1)),
    );
    // 8 x 700 kB in flight is well past the 3 MB budget: those that do not fit are answered while the rest wait.
    // Waited for, not a fixed pause: on a loaded machine not all of them had arrived 300 ms later.
    await vi.waitFor(() => expect(answered).toBeGreaterThanOrEqual(8 - Math.floor(budget / 700_000)), { timeout: 10_000 });
    release();
    const answers = await Promise.all(pending);
    const results = answers.map((a) => (a.status === 200 ? (JSON.parse(a.body) as { ok: boolean; error?: { message: string } }) : null));
    const busy = results.filter((r) => r && !r.ok && /busy/.test(r.error?.message ?? ''));
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length + saveCsvCalls).toBe(8);
    expect(saveCsvCalls).toBeLessThanOrEqual(Math.ceil(budget / 700_000));
    // Once the flood is over the budget is whole again: one more request goes through.
    const after = await post(h, '/ipc/files.saveCsv', body, 'POST', cookie);
    expect(JSON.parse(after.body)).toMatchObject({ ok: true });
  });
});
