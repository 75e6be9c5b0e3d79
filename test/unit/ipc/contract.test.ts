import { describe, expect, it } from 'vitest';
import { buildApi } from '../../../shared/ipc/build-api.js';
import { CHANNELS, EVENTS } from '../../../shared/ipc/channels.js';
import {
  CONTRACT,
  DEFAULT_MAX_INPUT_BYTES,
  EVENT_PAYLOADS,
  channelFacts,
  isAudited,
  maxInputBytes,
  switchesToOfflineOnFailure,
} from '../../../shared/ipc/contract.js';
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

  it('gives each channel its facts from its effect, overridden only where the entry says so', () => {
    for (const channel of CHANNELS) {
      const def: { effect: string; audited?: boolean; offlineOnFailure?: boolean; maxInputBytes?: number } = CONTRACT[channel];
      const facts = channelFacts(channel);
      expect(facts, channel).not.toBeNull();
      expect(facts?.audited, channel).toBe(def.audited ?? (def.effect === 'change' || def.effect === 'money'));
      expect(facts?.offlineOnFailure, channel).toBe(def.offlineOnFailure ?? def.effect === 'service-read');
      expect(facts?.maxInputBytes, channel).toBe(def.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES);
    }
    // The money actions are named here on purpose: a new one is a decision the test should make someone see.
    const money = CHANNELS.filter((channel) => CONTRACT[channel].effect === 'money');
    expect([...money].sort()).toEqual(['capacity.cancel', 'capacity.purchase', 'cyber.terminate']);
    for (const channel of money) expect(channelFacts(channel), channel).toMatchObject({ audited: true, offlineOnFailure: false });
    // Where the effect alone said the wrong thing.
    expect(isAudited('offline.sync')).toBe(true);
    expect(switchesToOfflineOnFailure('offline.sync')).toBe(false);
    expect(switchesToOfflineOnFailure('updates.check')).toBe(false);
    expect(switchesToOfflineOnFailure('capacity.list')).toBe(true);
    expect(maxInputBytes('files.saveCsv')).toBeGreaterThan(DEFAULT_MAX_INPUT_BYTES);
    for (const notAChannel of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect(channelFacts(notAChannel), notAChannel).toBeNull();
      expect(isAudited(notAChannel)).toBe(false);
      expect(switchesToOfflineOnFailure(notAChannel)).toBe(false);
    }
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

  it('refuses an input over its channel size limit before parsing it, whichever host carried it', async () => {
    let saved = 0;
    const counting = handlers({
      'session.signIn': async () => {
        throw new Error('must not run');
      },
      'files.saveCsv': async (input) => {
        saved += 1;
        return { outcome: 'saved', fileName: 'x.csv', path: '/tmp/x.csv', rows: input.rows.length };
      },
    });
    // A structured clone, as Electron's IPC hands it over: no body bytes to count.
    const password = '\u202e'.repeat(DEFAULT_MAX_INPUT_BYTES / 3 + 1);
    const refused = await dispatch(counting, 'session.signIn', { profileId: 'sandbox', username: 'u', password });
    expect(refused).toEqual({ ok: false, error: { kind: 'invalid-input', message: expect.stringMatching(/larger than Capacity Desk accepts/) } });
    const row = ['y'.repeat(1_000)];
    const large = { suggestedName: 'x', header: ['a'], rows: Array.from({ length: 1_000 }, () => row) };
    expect(await dispatch(counting, 'files.saveCsv', large)).toMatchObject({ ok: true });
    const tooLarge = { ...large, rows: Array.from({ length: 17_000 }, () => row) };
    expect(await dispatch(counting, 'files.saveCsv', tooLarge)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(saved).toBe(1);
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
