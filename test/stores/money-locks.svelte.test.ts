import { answer, push, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MoneyState } from '../../shared/ipc/money.js';
import { moneyLocks, uncertainHeadline } from '../../renderer/stores/money-locks.svelte.js';
import { session } from '../../renderer/stores/session.svelte.js';
import { UNREACHABLE } from './support/fixtures.js';

const stateOf = (cidrId: string, state: MoneyState['state'], profileId = 'sandbox'): MoneyState => ({
  profileId,
  cidrId,
  state,
  action: state === 'free' ? null : 'purchase',
  since: state === 'free' ? null : '2026-11-23T03:00:00.000Z',
  finalAfter: null,
  outcome: null,
  message: '',
});

beforeEach(async () => {
  resetFakeApi();
  answer('profiles.list', () => ({ ok: true, value: [] }));
  answer('session.signIn', () => ({ ok: true, value: { signedIn: true, profileId: 'sandbox', username: 'alex', keychain: { kind: 'memory' } } }));
  await session.signIn({ profileId: 'sandbox', username: 'alex', password: 'pw' });
});

describe('the money locks', () => {
  it("mirrors the main process's state of a policy, and says why its buttons are off", async () => {
    answer('money.state', () => ({ ok: true, value: stateOf('sc_1', 'uncertain') }));
    expect((await moneyLocks.refresh('sc_1'))?.state).toBe('uncertain');
    expect(moneyLocks.blockedReason('sc_1')).toBe(uncertainHeadline('purchase'));
    push('money.changed', stateOf('sc_1', 'in-flight'));
    expect(moneyLocks.blockedReason('sc_1')).toBe('A purchase of this policy is being sent.');
    push('money.changed', stateOf('sc_1', 'free'));
    expect(moneyLocks.blockedReason('sc_1')).toBeNull();
  });

  it("ignores another environment's lock on a policy with the same id", () => {
    push('money.changed', stateOf('sc_2', 'in-flight', 'other-profile'));
    expect(moneyLocks.get('sc_2')).toBeUndefined();
    expect(moneyLocks.blockedReason('sc_2')).toBeNull();
  });

  it('keeps the last known state when the main process cannot answer', async () => {
    push('money.changed', stateOf('sc_3', 'uncertain'));
    answer('money.state', () => ({ ok: false, error: UNREACHABLE }));
    expect((await moneyLocks.refresh('sc_3'))?.state).toBe('uncertain');
    answer('money.check', () => ({ ok: false, error: UNREACHABLE }));
    expect(await moneyLocks.check('sc_3')).toBeNull();
  });
});
