import { calls, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionStatus } from '../../shared/ipc/session.js';
import { overviewOf } from './support/fixtures.js';

/**
 * renderer/first-calls.ts, evaluated as the window starts (its own script, ahead of the app's code): the first
 * screen's calls leave at once, and the overview is asked on the status alone when it says someone is signed in
 * (issue 25, branch overview17), never while signed out.
 */
const signedIn: SessionStatus = { signedIn: true, profileId: 'sandbox', username: 'alex', keychain: { kind: 'memory' } };
const ended: SessionStatus = { signedIn: false, profileId: 'sandbox', username: 'alex', keychain: { kind: 'memory' }, endedBecause: 'expired' };

async function startWindow() {
  vi.resetModules();
  const statuses = hold('session.status');
  for (const channel of ['profiles.list', 'session.demoAccounts', 'views.state'] as const) hold(channel);
  const overviews = hold('overview.summary');
  const { firstCalls } = await import('../../renderer/first-calls.js');
  return { firstCalls, status: nth(statuses, 0), overviews };
}
const channels = () => calls.map((call) => call.channel);

describe("the window's first calls (issue 25)", () => {
  beforeEach(() => resetFakeApi());

  it('ask the status, the profiles, the demo accounts and the views at once, the overview only on a signed-in status', async () => {
    const { firstCalls, status, overviews } = await startWindow();
    expect(channels()).toEqual(['session.status', 'profiles.list', 'session.demoAccounts', 'views.state']);
    await settle();
    expect(channels()).not.toContain('overview.summary');
    status.ok(signedIn);
    await settle();
    expect(channels()).toEqual(['session.status', 'profiles.list', 'session.demoAccounts', 'views.state', 'overview.summary']);
    // Its answer is what the overview store's first load takes (main.ts hands it over).
    nth(overviews, 0).ok(overviewOf(6));
    const answer = await firstCalls.overview;
    expect(answer?.ok && answer.value.totalPolicies).toBe(6);
  });

  it('ask no overview while signed out (an ended session too), and answer null for it', async () => {
    const { firstCalls, status } = await startWindow();
    status.ok(ended);
    expect(await firstCalls.overview).toBeNull();
    await settle();
    expect(channels()).not.toContain('overview.summary');
  });

  it('ask no overview when the status could not be read', async () => {
    const { firstCalls, status } = await startWindow();
    status.fail({ kind: 'internal', message: 'no host' });
    expect(await firstCalls.overview).toBeNull();
    expect(channels()).not.toContain('overview.summary');
  });
});
