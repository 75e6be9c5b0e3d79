import { answer, calls, hold, push, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../shared/ipc/session.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { session } from '../../renderer/stores/session.svelte.js';
import { profileOf } from './support/fixtures.js';

const signedIn = (username: string): SessionStatus => ({ signedIn: true, profileId: 'sandbox', username, keychain: { kind: 'memory' } });
const ended = (username: string, endedBecause?: 'expired'): SessionStatus => ({
  signedIn: false,
  profileId: 'sandbox',
  username,
  keychain: { kind: 'memory' },
  ...(endedBecause ? { endedBecause } : {}),
});

beforeEach(() => {
  resetFakeApi();
  answer('profiles.list', () => ({ ok: true, value: [profileOf('sandbox', [])] }));
});

describe('the session store', () => {
  it('hears the status alone as soon as it is answered (the first screen is asked on it), and sets it only with the profiles and demo accounts (the sign-in view reads them as it mounts)', async () => {
    answer('session.status', () => ({ ok: true, value: signedIn('alex') }));
    const profiles = hold('profiles.list');
    const demo = hold('session.demoAccounts');
    let heard: SessionStatus | null = null;
    const loaded = session.load((status) => (heard = status));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual(signedIn('alex'));
    expect(profiles).toHaveLength(1);
    expect(session.status).toBeNull();
    expect(session.profiles).toEqual([]);
    profiles[0]?.ok([profileOf('sandbox', [])]);
    demo[0]?.ok([]);
    await loaded;
    expect(session.status).toEqual(signedIn('alex'));
    expect(session.profiles).toHaveLength(1);
  });

  it("signing in as another user resets every registered store; the same user's return resets nothing", async () => {
    let resets = 0;
    const stop = sessionScope.register(() => (resets += 1));
    answer('session.signIn', (input) => ({ ok: true, value: signedIn((input as { username: string }).username) }));
    answer('session.signOut', () => ({ ok: true, value: ended('alex') }));

    expect(await session.signIn({ profileId: 'sandbox', username: 'alex', password: 'pw' })).toBeNull();
    expect(session.signedIn).toBe(true);
    await session.signOut();
    expect(session.signedIn).toBe(false);
    await session.signIn({ profileId: 'sandbox', username: 'alex', password: 'pw' });
    expect(resets).toBe(0);
    await session.signIn({ profileId: 'sandbox', username: 'jordan', password: 'pw' });
    expect(resets).toBe(1);
    expect(sessionScope.current).toBe('sandbox\u0000jordan');
    stop();
  });

  it('a refused sign-in returns the error for the form and changes nothing', async () => {
    answer('session.signIn', () => ({ ok: false, error: { kind: 'unauthorized', message: 'Wrong password' } }));
    const before = session.status;
    const error = await session.signIn({ profileId: 'sandbox', username: 'alex', password: 'bad' });
    expect(error?.kind).toBe('unauthorized');
    expect(session.status).toBe(before);
  });

  it('asks the same person again, in place, when their session expires under their hands, and counts the return', async () => {
    const stop = session.listen();
    answer('session.signIn', () => ({ ok: true, value: signedIn('alex') }));
    await session.signIn({ profileId: 'sandbox', username: 'alex', password: 'pw' });
    push('session.changed', ended('alex', 'expired'));
    expect(session.reauth).toEqual({ profileId: 'sandbox', username: 'alex', reason: 'expired' });
    expect(session.showsApp).toBe(true);
    const resumed = session.resumed;
    expect(await session.reauthenticate('pw')).toBeNull();
    expect(session.reauth).toBeNull();
    expect(session.resumed).toBe(resumed + 1);
    expect(calls.filter((call) => call.channel === 'session.signIn').at(-1)?.input).toEqual({ profileId: 'sandbox', username: 'alex', password: 'pw' });
    stop();
  });
});
