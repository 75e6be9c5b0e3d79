import { answer, calls, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CyberPolicyStore } from '../../renderer/stores/cyber-policy.svelte.js';
import { FROM_COPY, SERVICE_NOW, UNREACHABLE, cyberDetailOf } from './support/fixtures.js';

beforeEach(() => resetFakeApi());

describe('the DR policy store', () => {
  it('shows the newest view only: an older answer arriving later is dropped', async () => {
    const reads = hold('cyber.view');
    const policy = new CyberPolicyStore('dr_1');
    const older = policy.load();
    const newer = policy.load();
    expect(policy.loading).toBe(true);
    nth(reads, 1).ok(cyberDetailOf('dr_1', SERVICE_NOW));
    await newer;
    nth(reads, 0).ok(cyberDetailOf('dr_1', FROM_COPY));
    await older;
    expect(policy.read.source).toBe('service');
    expect(policy.loading).toBe(false);
  });

  it('sends a termination once even if asked twice, then shows the timeline as it is now', async () => {
    const terminations = hold('cyber.terminate');
    answer('cyber.view', () => ({ ok: true, value: cyberDetailOf('dr_1') }));
    const policy = new CyberPolicyStore('dr_1');
    const first = policy.terminate();
    expect(await policy.terminate()).toBe(false);
    expect(terminations).toHaveLength(1);
    nth(terminations, 0).ok({ outcome: 'created', eventId: 7, message: 'Termination started' });
    expect(await first).toBe(true);
    expect(policy.outcome?.eventId).toBe(7);
    expect(policy.view?.cidrId).toBe('dr_1');
    expect(policy.terminating).toBe(false);
  });

  it('on a failed termination, says why and asks where the policy stands', async () => {
    answer('cyber.terminate', () => ({ ok: false, error: UNREACHABLE }));
    answer('cyber.view', () => ({ ok: true, value: cyberDetailOf('dr_1') }));
    answer('money.state', () => ({ ok: false, error: UNREACHABLE }));
    const policy = new CyberPolicyStore('dr_1');
    expect(await policy.terminate()).toBe(false);
    await settle();
    expect(policy.terminateError).toEqual(UNREACHABLE);
    expect(calls.map((call) => call.channel)).toContain('money.state');
  });
});
