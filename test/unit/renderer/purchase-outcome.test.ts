import { describe, expect, it } from 'vitest';
import { MESSAGE } from '../../../shared/api/contract-choices.js';
import { cancelledError, errorFromResponse } from '../../../electron/services/api-client/errors.js';
import { dispatch } from '../../../electron/services/ipc/dispatch.js';
import type { AppError, Result } from '../../../shared/ipc/result.js';
import { noLongerForSale } from '../../../renderer/lib/policy-actions.js';
import { stubHandlers } from '../../support/stub-handlers.js';

const failed = (error: AppError): Result<unknown> => ({ ok: false, error });
const envelope = (code: number, description: string) =>
  JSON.stringify({ error: { code: String(code), message: 'x', details: { timestamp: '2026-11-22T01:18:15.123', description } } });

describe('a purchase that failed drops the policy from the for-sale list only when it is no longer for sale', () => {
  const handlers = stubHandlers({});

  it('drops it when bought, refused by the service for its status, or no longer known', () => {
    expect(noLongerForSale({ ok: true, value: null })).toBe(true);
    expect(noLongerForSale(failed(errorFromResponse(400, envelope(400, MESSAGE.cannotPurchase('sc_1', 'ACTIVE')))))).toBe(true);
    expect(noLongerForSale(failed(errorFromResponse(404, envelope(404, MESSAGE.policyNotFound('sc_1')))))).toBe(true);
  });

  it('keeps it on offer when the purchase was never sent: bad input, unknown channel, cancelled', async () => {
    const badInput = await dispatch(handlers, 'capacity.purchase', { cidrId: 42 });
    const unknownChannel = await dispatch(handlers, 'capacity.buyEverything', { cidrId: 'sc_1' });
    expect(badInput).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(unknownChannel).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(noLongerForSale(badInput)).toBe(false);
    expect(noLongerForSale(unknownChannel)).toBe(false);
    expect(noLongerForSale(failed(cancelledError()))).toBe(false);
  });

  it('keeps it on offer when the answer said nothing about the policy', () => {
    for (const kind of ['offline', 'timeout', 'server', 'conflict', 'unsettled', 'unauthorized', 'contract', 'internal'] as const) {
      expect(noLongerForSale(failed({ kind, message: 'x' })), kind).toBe(false);
    }
  });
});
