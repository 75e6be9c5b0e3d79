/**
 * Session expiry against the sandbox: the warning before expiry, the end at
 * expiry, and a token the service stops accepting (its clock moved past the
 * token's lifetime) all reach the renderer as push events, with the user
 * kept so the same person can sign in again over the current view.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../electron/services/api-client/api-client.js';
import { AppEvents } from '../../electron/services/events.js';
import { ProfileRegistry } from '../../electron/services/profiles/profile-registry.js';
import { MemorySecretStore } from '../../electron/services/secrets/memory-secret-store.js';
import { keychainService } from '../../electron/services/secrets/secret-store.js';
import { SessionService } from '../../electron/services/session/session-service.js';
import { SettingsStore } from '../../electron/services/settings/settings-store.js';
import type { EventName } from '../../shared/ipc/channels.js';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.js';
import { ALEX, sandboxControls, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { ManualClock } from '../unit/session/manual-clock.js';
import { sandboxAccess } from '../support/test-app.js';

const MINUTE = 60_000;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Heard = { event: EventName; payload: unknown };

async function sessionOnManualClock(): Promise<{ session: SessionService; heard: Heard[]; clock: ManualClock; secrets: MemorySecretStore }> {
  const sandbox: SandboxHandle = await startSandbox({ controls: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-session-'));
  const client = new ApiClient({ baseUrl: sandbox.url });
  cleanups.push(async () => {
    await client.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const settings = new SettingsStore(dataDir);
  await settings.load();
  const events = new AppEvents();
  const heard: Heard[] = [];
  events.subscribe((event, payload) => heard.push({ event, payload }));
  const clock = new ManualClock(Date.now());
  const secrets = new MemorySecretStore('test');
  const session = new SessionService({
    secrets,
    settings,
    profiles: new ProfileRegistry(settings, () => sandbox.url),
    events,
    clientFor: () => client,
    now: clock.now,
    timers: clock,
  });
  return { session, heard, clock, secrets };
}

describe('expiry timers of a live session', () => {
  it('warns five minutes before the token ends, then ends the session and forgets the token', async () => {
    const { session, heard, clock, secrets } = await sessionOnManualClock();
    const status = await session.signIn({ profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
    heard.length = 0;

    clock.advance(55 * MINUTE - 1_000);
    expect(heard).toEqual([]);
    clock.advance(1_000);
    expect(heard).toEqual([
      {
        event: 'session.expiring',
        payload: { profileId: 'sandbox', username: ALEX.username, expiresAt: status.expiresAt, minutesLeft: 5 },
      },
    ]);

    clock.advance(5 * MINUTE);
    expect(heard[1]).toEqual({
      event: 'session.changed',
      payload: expect.objectContaining({ signedIn: false, endedBecause: 'expired', username: ALEX.username, profileId: 'sandbox' }),
    });
    expect(session.status()).toMatchObject({ signedIn: false, endedBecause: 'expired', username: ALEX.username });
    await expect.poll(() => secrets.get(keychainService('sandbox'), ALEX.username)).toBeNull();
    await expect(session.authorized(async () => 'ran')).rejects.toMatchObject({ error: { kind: 'unauthorized' } });
  });

  it('stops both timers on sign-out', async () => {
    const { session, heard, clock } = await sessionOnManualClock();
    await session.signIn({ profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
    await session.signOut();
    heard.length = 0;
    clock.advance(2 * 60 * MINUTE);
    expect(heard).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});

describe('a token the service no longer accepts', () => {
  let app: FastApp;

  it('ends the session with a push event when the sandbox clock passes the token lifetime', async () => {
    app = await startFastApp();
    cleanups.push(() => app.close());
    const heard: Heard[] = [];
    app.services.events.subscribe((event, payload) => heard.push({ event, payload }));
    expect(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password })).toMatchObject({ ok: true });
    // The replica's fill after sign-in finishes first, so the 401 below is this call's own.
    await app.services.replica.refresh.run();
    expect(await app.call('accounts.list')).toMatchObject({ ok: true });

    await sandboxControls(app.services.sandbox.url, sandboxAccess(app.services)).setClock({ advanceSeconds: 3_601 });
    const result = await app.call('accounts.list');
    expect(result).toMatchObject({ ok: false, error: { kind: 'unauthorized', status: 401 } });
    expect(heard.at(-1)).toEqual({
      event: 'session.changed',
      payload: expect.objectContaining({ signedIn: false, endedBecause: 'rejected', username: ALEX.username }),
    });
    expect(await app.call('session.status')).toMatchObject({ ok: true, value: { signedIn: false, endedBecause: 'rejected' } });

    // The same user signs in again: the session is back and the end reason is gone.
    const again = await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password });
    expect(again).toMatchObject({ ok: true, value: { signedIn: true, username: ALEX.username } });
    expect(again.ok ? again.value : null).not.toHaveProperty('endedBecause');
    expect(await app.call('accounts.list')).toMatchObject({ ok: true });
  });
});
