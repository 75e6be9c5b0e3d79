import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';

let app: FastApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('demo accounts of the built-in sandbox', () => {
  it('are listed by name only, and sign in without the password crossing IPC', async () => {
    app = await startFastApp();
    const listed = await app.call('session.demoAccounts');
    expect(listed).toEqual({ ok: true, value: SANDBOX_USERS.map(({ username, displayName }) => ({ username, displayName })) });
    expect(JSON.stringify(listed)).not.toContain(SANDBOX_USERS[0]!.password);
    const signedIn = await app.call('session.signInDemo', { username: SANDBOX_USERS[1]!.username });
    expect(signedIn).toMatchObject({ ok: true, value: { signedIn: true, profileId: 'sandbox', username: SANDBOX_USERS[1]!.username } });
  });

  it('refuse a name that is no demo account, prototype names included, without signing in', async () => {
    app = await startFastApp();
    for (const username of ['someone@example.com', '__proto__', 'constructor', 'toString']) {
      expect(await app.call('session.signInDemo', { username }), username).toMatchObject({ ok: false, error: { kind: 'not-found' } });
    }
    expect(await app.call('session.status')).toMatchObject({ ok: true, value: { signedIn: false } });
  });
});
