import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/services/ipc/dispatch.js';
import type { Handlers } from '../../shared/ipc/contract.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { CHANNELS, type Channel } from '../../shared/ipc/channels.js';
import { CONTRACT } from '../../shared/ipc/contract.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { sandboxAccess, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Random and hostile input at every IPC channel, through the same dispatch
 * both hosts use: anything the channel's schema refuses comes back as a typed
 * validation error, the handler never runs, nothing crashes, and the service
 * sees no request.
 */
const alex = SANDBOX_USERS[0]!;
let app: TestApp;
let handlers: Handlers;
const calls = new Map<Channel, number>();

const hostileStrings = fc.constantFrom(
  '__proto__',
  'constructor',
  '../../etc/passwd',
  'sc_1/../../sandbox/reset',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '\u0000',
  '\u202e',
  'a'.repeat(100_000),
  '%2e%2e%2f',
  '${7*7}',
);
const hostileValue = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  hostileStrings,
  fc.record({ __proto__: fc.anything(), constructor: fc.anything() }),
  fc.dictionary(hostileStrings, fc.anything({ maxDepth: 2 })),
  fc.constant(Object.create(null) as object),
  fc.array(fc.anything(), { maxLength: 5 }),
);

/** Requests the sandbox has answered, all endpoints together (its stats control counts them). */
async function requestCount(): Promise<number> {
  const response = await fetch(`${app.services.sandbox.url}/sandbox/stats`, { headers: sandboxAccess(app.services) });
  const counts = (await response.json()) as Record<string, number>;
  expect(counts.signIn).toBeGreaterThanOrEqual(1);
  return Object.values(counts).reduce((sum, value) => sum + value, 0);
}

beforeAll(async () => {
  // Counts requests: the background fill of the replica after sign-in would add its own.
  app = await startTestApp({ secrets: new FixedSecretStore(), refreshReplicaAtSignIn: false });
  const real = app.services.handlers;
  await real['session.signIn']({ profileId: 'sandbox', username: alex.username, password: alex.password });
  const counting: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const channel of CHANNELS) {
    counting[channel] = (input: unknown) => {
      calls.set(channel, (calls.get(channel) ?? 0) + 1);
      return (real[channel] as (input: unknown) => Promise<unknown>)(input);
    };
  }
  handlers = counting as Handlers;
});

afterAll(async () => {
  await app.close();
});

describe('every IPC channel under random and hostile input', () => {
  it.each(CHANNELS.map((c) => [c]))('%s refuses what its schema refuses, without running', async (channel) => {
    const schema = CONTRACT[channel].input;
    const before = await requestCount();
    await fc.assert(
      fc.asyncProperty(hostileValue, async (input) => {
        fc.pre(!schema.safeParse(input).success);
        const result = await dispatch(handlers, channel, input);
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(result.error.kind).toBe('invalid-input');
          expect(typeof result.error.message).toBe('string');
        }
      }),
      { numRuns: 60 },
    );
    expect(calls.get(channel) ?? 0).toBe(0);
    expect(await requestCount()).toBe(before);
  });

  it('is still signed in and the prototype is untouched afterwards', async () => {
    expect(app.services.session.status().signedIn).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'constructor')).toBe(true);
  });
});
