import { hold, nth, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { LinkedAccounts } from '../../renderer/stores/linked-accounts.svelte.js';
import type { SourcedAccounts } from '../../shared/ipc/sourced.js';
import { FROM_COPY, SERVICE_NOW, UNREACHABLE } from './support/fixtures.js';

const accountsOf = (ids: string[], origin = SERVICE_NOW): SourcedAccounts => ({
  items: ids.map((accountId) => ({ accountId })),
  skipped: [{ index: 9, problems: [] }],
  origin,
});

beforeEach(() => resetFakeApi());

describe('the linked accounts', () => {
  it('is loading until the answer, then lists the accounts with what was left out and where they came from', async () => {
    const reads = hold('accounts.list');
    const list = new LinkedAccounts();
    const loading = list.load();
    expect(list.loading).toBe(true);
    expect(list.accounts).toBeNull();
    nth(reads, 0).ok(accountsOf(['111111111111'], FROM_COPY));
    await loading;
    expect(list.accounts?.map((a) => a.accountId)).toEqual(['111111111111']);
    expect(list.skipped).toHaveLength(1);
    expect(list.origin?.source).toBe('replica');
  });

  it('drops an older answer that arrives after a newer refresh', async () => {
    const reads = hold('accounts.list');
    const list = new LinkedAccounts();
    const older = list.load();
    const newer = list.load();
    nth(reads, 1).ok(accountsOf(['new']));
    await newer;
    nth(reads, 0).ok(accountsOf(['old'], FROM_COPY));
    await older;
    expect(list.accounts?.map((a) => a.accountId)).toEqual(['new']);
    expect(list.origin?.source).toBe('service');
  });

  it('keeps the accounts on a failed refresh and says why', async () => {
    const reads = hold('accounts.list');
    const list = new LinkedAccounts();
    const first = list.load();
    nth(reads, 0).ok(accountsOf(['a']));
    await first;
    const again = list.load();
    nth(reads, 1).fail(UNREACHABLE);
    await again;
    expect(list.error).toEqual(UNREACHABLE);
    expect(list.accounts).toHaveLength(1);
  });
});
