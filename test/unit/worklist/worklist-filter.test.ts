import { expect, it } from 'vitest';
import { snoozedOut, stateOutside } from '../../../shared/ipc/worklist.js';

it('the worklist leaves out a policy snoozed until a later day unless snoozed ones are asked for, and one in a state not asked for', () => {
  const today = '2026-11-27';
  expect(snoozedOut({ snoozedUntil: '2026-11-28' }, false, today)).toBe(true);
  expect(snoozedOut({ snoozedUntil: '2026-11-28' }, true, today)).toBe(false);
  // Snoozed until today or before: the day has begun, the policy is back.
  expect(snoozedOut({ snoozedUntil: today }, false, today)).toBe(false);
  expect(snoozedOut({ snoozedUntil: null }, false, today)).toBe(false);
  expect(snoozedOut(undefined, false, today)).toBe(false);
  expect(stateOutside('contacted', [])).toBe(false);
  expect(stateOutside('contacted', ['contacted'])).toBe(false);
  expect(stateOutside('to-do', ['contacted'])).toBe(true);
});
