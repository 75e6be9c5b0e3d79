import { describe, expect, it } from 'vitest';
import { PageLoading, callsEndPageLoading } from '../../../electron/services/overview/page-loading.js';
import { stubHandlers } from '../../support/stub-handlers.js';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return done;
};

describe('the first page loading', () => {
  it('holds nothing before a page is asked for, holds from then to its code served, and never again after', async () => {
    const loading = new PageLoading();
    expect(await settled(loading.loaded())).toBe(true);
    loading.pageAsked();
    const held = loading.loaded();
    expect(await settled(held)).toBe(false);
    loading.codeServed();
    expect(await settled(held)).toBe(true);
    // A second page (a reload) is not waited for.
    loading.pageAsked();
    expect(await settled(loading.loaded())).toBe(true);
  });

  it('lets go after its longest hold when the code never comes (a page shut as it loaded)', async () => {
    const loading = new PageLoading({ maxHoldMs: 50 });
    loading.pageAsked();
    const held = loading.loaded();
    expect(await settled(held)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await settled(held)).toBe(true);
  });

  it('ends at the page\'s first call to the main process, whichever host carried it', async () => {
    const loading = new PageLoading();
    const handlers = callsEndPageLoading(stubHandlers({ 'session.status': async () => ({ signedIn: false, profileId: 'sandbox', keychain: { kind: 'memory', reason: 'test' } }) }), loading);
    loading.pageAsked();
    const held = loading.loaded();
    await handlers['session.status'](undefined);
    expect(await settled(held)).toBe(true);
  });
});
