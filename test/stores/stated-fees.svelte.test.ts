import { answer, calls, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StatedFees } from '../../shared/ipc/activity.js';
import type { AppError } from '../../shared/ipc/result.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { capacityActions } from '../../renderer/stores/capacity-policy.svelte.js';
import { statedFees } from '../../renderer/stores/stated-fees.svelte.js';
import { capacityDetailOf } from './support/fixtures.js';

const SERVER: AppError = { kind: 'server', message: 'The service had a problem' };
// Local wall-clock instants: the month is the person's calendar month, in this computer's time zone.
const local = (month: number, day: number, hour = 12, minute = 0, second = 0) => new Date(2026, month, day, hour, minute, second).toISOString();

let runs = 0;
beforeEach(() => {
  resetFakeApi();
  runs += 1;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
});

const reads = () => calls.filter((call) => call.channel === 'activity.statedFees').length;

describe('the stated-fees store', () => {
  it('answers each policy’s fee by id, hostile ids as plain keys, none for a policy without one', async () => {
    const fees: StatedFees = [
      { cidrId: '__proto__', fee: 12.5, at: local(10, 3) },
      { cidrId: 'constructor', fee: 0, at: local(10, 4) },
      { cidrId: 'sc_1', fee: 12205.21, at: local(10, 5) },
    ];
    answer('activity.statedFees', () => ({ ok: true, value: fees }));
    await statedFees.load();
    expect(statedFees.of('__proto__')).toBe(12.5);
    expect(statedFees.of('constructor')).toBe(0);
    expect(statedFees.of('sc_1')).toBe(12205.21);
    expect(statedFees.of('toString')).toBeNull();
    expect(statedFees.of('sc_2')).toBeNull();
  });

  it('sums the fees of this calendar month only, to the cent', async () => {
    answer('activity.statedFees', () => ({
      ok: true,
      value: [
        { cidrId: 'sc_1', fee: 1.1, at: local(10, 1, 0, 0, 1) },
        { cidrId: 'sc_2', fee: 2.2, at: local(10, 30, 23, 59, 59) },
        { cidrId: 'sc_3', fee: 1000, at: local(9, 31, 23, 59, 59) },
        { cidrId: 'sc_4', fee: 1000, at: local(11, 1, 0, 0, 0) },
        { cidrId: 'sc_5', fee: 1000, at: new Date(2025, 10, 15).toISOString() },
      ],
    }));
    await statedFees.load();
    expect(statedFees.inMonthOf(new Date(2026, 10, 26))).toEqual({ total: 3.3, count: 2 });
    expect(statedFees.inMonthOf(new Date(2027, 0, 1))).toEqual({ total: 0, count: 0 });
  });

  it('keeps the last fees on a failed read, and drops them when another user signs in', async () => {
    const held = hold('activity.statedFees');
    const first = statedFees.load();
    nth(held, 0).ok([{ cidrId: 'sc_1', fee: 5, at: local(10, 3) }]);
    await first;
    const second = statedFees.load();
    nth(held, 1).fail(SERVER);
    await second;
    expect(statedFees.of('sc_1')).toBe(5);
    expect(statedFees.fees.error).toEqual(SERVER);

    const late = statedFees.load();
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    expect(statedFees.of('sc_1')).toBeNull();
    nth(held, 2).ok([{ cidrId: 'sc_1', fee: 5, at: local(10, 3) }]);
    await late;
    expect(statedFees.of('sc_1')).toBeNull();
  });

  it('reads the fees again after a cancel the service confirmed, not after a refused one', async () => {
    answer('capacity.list', () => ({ ok: false, error: SERVER }));
    answer('capacity.describe', () => ({ ok: true, value: capacityDetailOf('sc_1', 'p') }));
    answer('money.state', () => ({ ok: false, error: SERVER }));
    answer('activity.statedFees', () => ({ ok: true, value: [{ cidrId: 'sc_1', fee: 250, at: local(10, 3) }] }));
    answer('capacity.cancel', () => ({ ok: false, error: { kind: 'rejected', message: 'cannot be canceled in status CANCELED' } }));
    await capacityActions.cancel('sc_1');
    await settle();
    expect(reads()).toBe(0);
    expect(statedFees.of('sc_1')).toBeNull();

    answer('capacity.cancel', () => ({ ok: true, value: { message: 'Policy sc_1 canceled successfully. Early cancellation fee: 250.00', fee: 250 } }));
    await capacityActions.cancel('sc_1');
    await settle();
    expect(reads()).toBe(1);
    expect(statedFees.of('sc_1')).toBe(250);
  });
});
