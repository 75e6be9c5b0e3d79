import { describe, expect, it } from 'vitest';
import { buildApi } from '../../../shared/ipc/build-api.js';
import { CHANNELS, EVENTS } from '../../../shared/ipc/channels.js';
import { CONTRACT, EVENT_PAYLOADS, isAudited, isServiceRead } from '../../../shared/ipc/contract.js';
import { AppFailure, type Result } from '../../../shared/ipc/result.js';
import { dispatch } from '../../../electron/services/ipc/dispatch.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import { stubHandlers } from '../../support/stub-handlers.js';

const keychain = { kind: 'keychain' as const };
const signedOut = { signedIn: false, profileId: 'sandbox', keychain };

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  return stubHandlers({
    'profiles.list': async () => [],
    'session.status': async () => signedOut,
    'session.signIn': async () => signedOut,
    'session.signOut': async () => signedOut,
    'accounts.list': async () => ({ items: [], skipped: [], origin: { source: 'service', fetchedAt: new Date().toISOString() } }),
    ...overrides,
  });
}

describe('IPC contract', () => {
  it('gives every channel and event a schema, and names nothing else', () => {
    expect(Object.keys(CONTRACT).sort()).toEqual([...CHANNELS].sort());
    expect(Object.keys(EVENT_PAYLOADS).sort()).toEqual([...EVENTS].sort());
    for (const channel of CHANNELS) expect(channel).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
  });

  it('says of each channel what it does: view reads of the service, audited changes, money actions', () => {
    const withEffect = (effect: string) => CHANNELS.filter((channel) => CONTRACT[channel].effect === effect);
    expect(withEffect('money').sort()).toEqual(['capacity.cancel', 'capacity.purchase', 'cyber.terminate']);
    // Only a view's read of the live service may switch the app to its offline copy; local answers never do.
    expect(CHANNELS.filter(isServiceRead).sort()).toEqual(
      ['accounts.list', 'capacity.describe', 'capacity.list', 'capacity.search', 'cyber.list', 'cyber.view', 'money.check', 'network.checkService', 'overview.summary'].sort(),
    );
    for (const local of ['network.status', 'money.state', 'files.saveCsv', 'diagnostics.contractDrift', 'offline.sync', 'session.signIn']) {
      expect(isServiceRead(local), local).toBe(false);
    }
    expect(CHANNELS.filter(isAudited)).toEqual([...withEffect('change'), ...withEffect('money')].sort((a, b) => CHANNELS.indexOf(a) - CHANNELS.indexOf(b)));
    expect(isAudited('capacity.purchase')).toBe(true);
    expect(isAudited('capacity.list')).toBe(false);
    expect(isServiceRead('toString')).toBe(false);
  });

  it('builds one named method per channel and nothing that takes a channel name', async () => {
    const calls: Array<[string, unknown]> = [];
    const api = buildApi(
      async (channel, input) => {
        calls.push([channel, input]);
        return { ok: true, value: null };
      },
      () => () => undefined,
    );
    await api.session.signIn({ profileId: 'sandbox', username: 'u', password: 'p' });
    await api.accounts.list();
    expect(calls).toEqual([
      ['session.signIn', { profileId: 'sandbox', username: 'u', password: 'p' }],
      ['accounts.list', undefined],
    ]);
    const names = Object.keys(api).sort();
    expect(names).toEqual([...new Set(CHANNELS.map((c) => c.split('.')[0]))].concat('on').sort());
    expect('invoke' in api).toBe(false);
    expect(Object.isFrozen(api)).toBe(true);
    expect(() => api.on('no.such' as never, () => undefined)).toThrow(/Unknown event/);
  });
});

describe('dispatch', () => {
  it('refuses input that does not match the channel schema, without calling the handler', async () => {
    let called = false;
    const result = await dispatch(
      handlers({
        'session.signIn': async () => {
          called = true;
          return signedOut;
        },
      }),
      'session.signIn',
      { profileId: 'sandbox', username: '   ', password: 'x' },
    );
    expect(called).toBe(false);
    expect(result).toEqual({ ok: false, error: { kind: 'invalid-input', message: 'Enter your username or e-mail', field: 'username' } });
  });

  it('refuses unknown channels', async () => {
    const result = await dispatch(handlers(), 'session.token', undefined);
    expect(result.ok).toBe(false);
  });

  it('strips from the output anything the contract does not name (a token can never leak)', async () => {
    const leaky = { ...signedOut, signedIn: true, username: 'a', accessToken: 'secret-token' };
    const result = (await dispatch(handlers({ 'session.status': async () => leaky }), 'session.status', undefined)) as Result<
      Record<string, unknown>
    >;
    expect(result.ok).toBe(true);
    if (result.ok) expect(JSON.stringify(result.value)).not.toContain('secret-token');
  });

  it('turns a thrown AppFailure into an error value and a bug into an internal error', async () => {
    const failure = new AppFailure({ kind: 'not-found', status: 404, message: 'Policy sc_1 not found' });
    const reported: unknown[] = [];
    const failed = await dispatch(handlers({ 'accounts.list': async () => Promise.reject(failure) }), 'accounts.list', undefined);
    expect(failed).toEqual({ ok: false, error: failure.error });
    const bug = await dispatch(
      handlers({ 'accounts.list': async () => Promise.reject(new TypeError('boom')) }),
      'accounts.list',
      undefined,
      (_channel, error) => reported.push(error),
    );
    expect(bug).toEqual({ ok: false, error: { kind: 'internal', message: 'Something went wrong inside Capacity Desk.' } });
    expect(reported).toHaveLength(1);
  });
});
