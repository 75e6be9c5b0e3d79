import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

/**
 * People type their password into the username field. A refused sign-in must
 * leave no trace of what was typed in any log file; the password of a sign-in
 * under way is kept out of every log line, whoever writes it.
 */
let app: FastApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function everyLogLine(fast: FastApp): Promise<string> {
  await Promise.all([fast.services.logger.flush(), fast.services.auditLog.flush()]);
  const dir = fast.services.logger.dir;
  const files = await readdir(dir);
  const texts = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')));
  return texts.join('\n');
}

describe('a failed sign-in in the logs', () => {
  it('names neither the username typed nor the password; a keyed mark and the length tell attempts apart', async () => {
    app = await startFastApp();
    const typedAsUsername = 'Winter-2026!horse';
    const refused = await app.call('session.signIn', { profileId: 'sandbox', username: typedAsUsername, password: 'not-the-password' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    const again = await app.call('session.signIn', { profileId: 'sandbox', username: 'someone.else@example.com', password: 'also-wrong-1' });
    expect(again.ok).toBe(false);

    const logs = await everyLogLine(app);
    expect(logs).not.toContain(typedAsUsername);
    expect(logs).not.toContain('Winter');
    expect(logs).not.toContain('someone.else');
    expect(logs).not.toContain('not-the-password');
    const marks = [...logs.matchAll(/session\.signIn \[profileId=sandbox username=(#[0-9a-f]{8}\(\d+ chars\))\] failed \(unauthorized\)/g)].map((m) => m[1]);
    expect(marks).toHaveLength(2);
    expect(marks[0]).toBe(`${marks[0]?.slice(0, 9)}(${typedAsUsername.length} chars)`);
    expect(marks[0]).not.toBe(marks[1]);

    // A username the service accepted is a real one, and stays named for support.
    expect((await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password })).ok).toBe(true);
    expect(await everyLogLine(app)).toContain(`username=${ALEX.username}] succeeded`);
  });

  it('keeps the password of a sign-in under way out of every log line, and only while it runs', async () => {
    app = await startFastApp();
    const fast = app;
    const password = 'Qz9'; // short on purpose: too short for the redactor's permanent list, still a password
    const longer = 'Sunny-Day-42';
    // Both sign-ins are held at the service until the lines below are logged (a fixed wait under a latency ran out
    // under load before the lines were written, and then the sign-ins were over).
    await fast.controls.addFault({ pathPrefix: '/', method: 'POST', hold: true });
    const pending = fast.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: longer });
    const pendingShort = fast.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password });
    await vi.waitFor(async () => expect(await fast.controls.heldAnswers()).toBe(2), { timeout: 20_000, interval: 20 });
    // Whatever part of the app logs while the sign-in runs (an error echoing a body, a proxy line) cannot name it.
    fast.services.logger.warn('network', `a request body was {"user":"x","pw":"${longer}"} and ${password}!`);
    fast.services.auditLog.warn('audit', `audit saw ${longer}`);
    await fast.controls.clearFaults();
    await Promise.all([pending, pendingShort]);
    const during = await everyLogLine(fast);
    expect(during).not.toContain(longer);
    expect(during).toContain('a request body was {"user":"x","pw":"[redacted]"} and [redacted]!');
    expect(during).toContain('audit saw [redacted]');

    // Once the sign-in is over the value is no longer held: ordinary text that happens to match is logged as it is.
    fast.services.logger.warn('test', 'after the sign-in: Qz9');
    expect(await everyLogLine(fast)).toContain('after the sign-in: Qz9');
  });
});
