/**
 * A stand-in for the preload's `window.api`, installed before any store module
 * loads (import this file first): every contract channel exists, and each
 * answers with what the test queued for it. A call nobody expected fails the
 * test loudly instead of hanging.
 */
import { buildApi } from '../../../shared/ipc/build-api.js';
import type { Channel, EventName } from '../../../shared/ipc/channels.js';
import type { EventPayload, Output } from '../../../shared/ipc/contract.js';
import type { AppError, Result } from '../../../shared/ipc/result.js';

type Answer = (input: unknown) => Promise<Result<unknown>>;

const answers = new Map<string, Answer>();
const listeners = new Map<string, Set<(payload: unknown) => void>>();
/** Every call made, in order: channel and input. */
export const calls: Array<{ channel: Channel; input: unknown }> = [];

/** Built as the preload builds it: one method per contract channel, and `on` for the pushed events. */
const fake = buildApi(
  (channel, input) => {
    calls.push({ channel, input });
    const answer = answers.get(channel);
    if (!answer) return Promise.reject(new Error(`unexpected call to ${channel}`));
    return answer(input);
  },
  (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  },
);

Object.defineProperty(globalThis, 'window', { value: { api: fake }, configurable: true, writable: true });

/** A read whose answer the test gives later, to resolve reads out of order. */
export interface Pending<C extends Channel> {
  readonly input: unknown;
  ok(value: Output<C>): void;
  fail(error: AppError): void;
}

/** Each call of `channel` waits until the test answers it; returns the calls as they come. */
export function hold<C extends Channel>(channel: C): Array<Pending<C>> {
  const pending: Array<Pending<C>> = [];
  answers.set(channel, (input) =>
    new Promise((resolve) => {
      pending.push({
        input,
        ok: (value) => resolve({ ok: true, value }),
        fail: (error) => resolve({ ok: false, error }),
      });
    }),
  );
  return pending;
}

/** Each call of `channel` answers at once with what `answer` returns for its input. */
export function answer<C extends Channel>(channel: C, value: (input: unknown) => Result<Output<C>>): void {
  answers.set(channel, (input) => Promise.resolve(value(input)));
}

/** Pushes an event from the main process to whoever listens (api.on). */
export function push<E extends EventName>(event: E, payload: EventPayload<E>): void {
  for (const listener of listeners.get(event) ?? []) listener(payload);
}

export function resetFakeApi(): void {
  answers.clear();
  calls.length = 0;
}

/** Lets every settled promise's continuations run (the store's code after its await). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** The `index`th call a test held; a call that never came fails the test here instead of passing silently. */
export function nth<T>(calls: readonly T[], index: number): T {
  const call = calls[index];
  if (call === undefined) throw new Error(`call ${index + 1} never came (${calls.length} so far)`);
  return call;
}
