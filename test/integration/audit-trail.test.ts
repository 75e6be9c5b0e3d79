import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_LOG_FILE, LOG_FILE } from '../../electron/services/logging/file-logger.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { loopbackAgent } from '../support/loopback-agent.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The audit trail of state-changing calls lives in a file of its own, and a
 * flood of refused requests (which anyone on the computer can send to the
 * browser host without the secret) neither reaches it nor fills the main log.
 */
let app: TestApp;
const agent = loopbackAgent({ connections: 32 });

beforeAll(async () => {
  app = await startTestApp({ secrets: new MemorySecretStore('test') });
});
afterAll(async () => {
  await agent.close();
  await app?.close();
});

async function call(path: string, cookie: string, body: unknown): Promise<unknown> {
  const answer = await request(`${app.host.origin}${path}`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', origin: app.host.origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return answer.statusCode === 200 ? answer.body.json() : (await answer.body.text(), answer.statusCode);
}

describe('audit trail', () => {
  it('keeps every state-changing call in audit.log, out of reach of refused-request floods', async () => {
    const launch = await request(app.host.newLaunchUrl(), { dispatcher: agent });
    await launch.body.text();
    const cookie = String(launch.headers['set-cookie']).split(';')[0] as string;

    const signedIn = await call('/ipc/session.signIn', cookie, { input: { profileId: 'sandbox', username: 'alex.morgan@example.com', password: 'sandbox-demo-1' } });
    expect(signedIn).toMatchObject({ ok: true, value: { signedIn: true } });
    await app.services.logger.flush();
    const mainBefore = await readFile(join(app.services.logger.dir, LOG_FILE), 'utf8').catch(() => '');

    const refused = 5_000;
    for (let batch = 0; batch < refused / 100; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => call('/ipc/session.signOut', '', { input: {} })));
      expect(answers.every((status) => status === 401)).toBe(true);
    }
    await Promise.all([app.services.logger.flush(), app.services.auditLog.flush()]);

    const audit = await readFile(join(app.services.auditLog.dir, AUDIT_LOG_FILE), 'utf8');
    expect(audit).toMatch(/\[audit\] session\.signIn \[profileId=sandbox username=alex\.morgan@example\.com\] succeeded/);
    expect(audit).not.toMatch(/refused/);
    expect(audit).not.toContain('sandbox-demo-1');

    const mainAfter = await readFile(join(app.services.logger.dir, LOG_FILE), 'utf8');
    const added = mainAfter.slice(mainBefore.length).split('\n').filter((line) => line.includes('[browser-host]'));
    // The first refusal is named at once; the rest wait for the periodic summary.
    expect(added.length).toBeLessThanOrEqual(2);
    // Sending the flood is set-up, not the subject: 18 s of the integration default 30 s at load 11-17.
  }, 120_000);
});
