/**
 * A kept answer (kept-answers.ts, issue 28) is checked by its channel's output
 * schema at its first send only, and cannot change after; every other answer
 * is checked at every send, as before.
 */
import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { WorklistWindow } from '../../../shared/ipc/worklist.js';
import { dispatch } from '../../../electron/services/ipc/dispatch.js';
import { keptAnswer } from '../../../electron/services/ipc/kept-answers.js';
import { stubHandlers } from '../../support/stub-handlers.js';

function window(): WorklistWindow {
  return {
    rows: [],
    offset: 0,
    total: 0,
    customers: ['Morgan Analytics'],
    stateCounts: { 'to-do': 0, contacted: 0, renewing: 0, 'letting-go': 0, handled: 0 },
    origin: { source: 'replica', fetchedAt: '2026-11-27T08:00:00.000Z' },
  };
}

const answering = (answer: () => unknown) => stubHandlers({ 'worklist.query': async () => answer() } as Partial<Handlers>);

describe('kept answers through dispatch', () => {
  it('are checked once: sent again, the answer as checked the first time is given', async () => {
    const kept = keptAnswer(window());
    const handlers = answering(() => kept);
    const first = await dispatch(handlers, 'worklist.query', {});
    const again = await dispatch(handlers, 'worklist.query', {});
    expect(first).toEqual({ ok: true, value: window() });
    expect(again.ok && first.ok && again.value).toBe(first.ok && first.value);
  });

  it('cannot change once kept, nor can what was checked of them', async () => {
    const kept = keptAnswer(window());
    expect(() => (kept.customers as string[]).push('__proto__')).toThrow(TypeError);
    const sent = await dispatch(answering(() => kept), 'worklist.query', {});
    expect(() => ((sent.ok ? sent.value : null) as WorklistWindow).customers.push('x')).toThrow(TypeError);
  });

  it('that fail the check fail it at every send', async () => {
    const broken = keptAnswer({ ...window(), total: -1 });
    const reported: string[] = [];
    const handlers = answering(() => broken);
    for (let send = 0; send < 2; send += 1) {
      expect(await dispatch(handlers, 'worklist.query', {}, (channel) => reported.push(channel))).toMatchObject({ ok: false, error: { kind: 'internal' } });
    }
    expect(reported).toEqual(['worklist.query', 'worklist.query']);
  });

  it('other answers are checked at every send: the same object changed into a wrong one is refused', async () => {
    const answer = window();
    const handlers = answering(() => answer);
    const first = await dispatch(handlers, 'worklist.query', {});
    expect(first.ok).toBe(true);
    answer.total = -1;
    expect(await dispatch(handlers, 'worklist.query', {})).toMatchObject({ ok: false, error: { kind: 'internal' } });
  });
});
