/**
 * Day13 (branch ux14): the app said nothing of the service being away until a view asked it. The main process
 * now notices by itself, over the real sandbox: every connection dropped (the service gone), then answered
 * again, with no call from any window in between; and its log names neither the token nor a request.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import type { ServiceCheck } from '../../shared/ipc/sourced.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { sandboxAccess, startTestApp, type TestApp } from '../support/test-app.js';

const alex = SANDBOX_USERS[0]!;
let app: TestApp | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
});

async function sandboxControl(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
  const services = app!.services;
  const response = await fetch(`${services.sandbox.url}/sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...sandboxAccess(services) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok).toBe(true);
}

/** The next `network.serviceChanged` saying `reachable`, and how long it took. */
function nextNotice(reachable: boolean): Promise<{ state: ServiceCheck; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const stop = app!.services.events.subscribe((event, payload) => {
      if (event !== 'network.serviceChanged' || (payload as ServiceCheck).reachable !== reachable) return;
      stop();
      resolve({ state: payload as ServiceCheck, afterMs: Date.now() - started });
    });
  });
}

describe('the service watch', () => {
  it('tells the windows the service went away and came back, with no window asking, and logs no token', async () => {
    const secrets = new FixedSecretStore();
    app = await startTestApp({ secrets, refreshReplicaAtSignIn: false, serviceWatch: { upCheckEveryMs: 1_000, downDelaysMs: [500, 1_000] } });
    const { handlers } = app.services;
    await handlers['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
    const firstUp = nextNotice(true);
    expect((await firstUp).state.reachable).toBe(true);

    // The service goes away: every connection dropped before an answer.
    const away = nextNotice(false);
    await sandboxControl('POST', '/faults', { dropRate: 1 });
    const down = await away;
    // Within a check's wait and its own timeout, not at the next read of a view (none is made here).
    expect(down.afterMs).toBeLessThan(15_000);

    // Back: told at the next check of the backoff.
    const back = nextNotice(true);
    await sandboxControl('DELETE', '/faults');
    expect((await back).afterMs).toBeLessThan(5_000);

    const status = app.services.session.status();
    const stored = await secrets.get(`Capacity Desk (${status.profileId})`, alex.username);
    const token = (JSON.parse(stored ?? '{}') as { accessToken?: string }).accessToken ?? '';
    expect(token.split('.')).toHaveLength(3);
    await app.services.logger.flush();
    const logsDir = join(app.services.dataDir, 'logs');
    const logs = await Promise.all((await readdir(logsDir)).map((name) => readFile(join(logsDir, name), 'utf8')));
    const all = logs.join('\n');
    expect(all).toContain('the service cannot be reached');
    expect(all).toContain('the service answers');
    expect(all).not.toContain(token);
    expect(all).not.toMatch(/Bearer/i);
  });
});
