import { answer, calls, resetFakeApi } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadViewState } from '../../renderer/lib/persisted.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { COLUMN_MAX_WIDTH, LAYOUT_KEY, capacityTableLayout } from '../../renderer/stores/capacity-table-layout.svelte.js';

const ids = () => capacityTableLayout.columns.map((column) => column.id);

beforeEach(() => {
  resetFakeApi();
  answer('views.setState', () => ({ ok: true, value: null }));
});

describe('the capacity table layout', () => {
  it('is kept per user, even a user named __proto__, and another user starts from the first layout', async () => {
    answer('views.state', () => ({ ok: true, value: {} }));
    await loadViewState();
    sessionScope.use('sandbox\u0000__proto__');
    const first = ids();
    expect(first).toContain('account');
    expect(first).not.toContain('providerPrice');
    capacityTableLayout.setShown('providerPrice', true);
    capacityTableLayout.setShown('account', false);
    capacityTableLayout.resize('name', 10_000);
    expect(ids()).toContain('providerPrice');
    expect(ids()).not.toContain('account');
    expect(capacityTableLayout.width('name')).toBe(COLUMN_MAX_WIDTH);
    // The columns that name a row cannot be hidden.
    capacityTableLayout.setShown('cidrId', false);
    expect(ids()[0]).toBe('cidrId');
    const saved = calls.filter((call) => call.channel === 'views.setState').at(-1)?.input as { key: string; value: { users: { user: string }[] } };
    expect(saved.key).toBe(LAYOUT_KEY);
    expect(saved.value.users[0]?.user).toBe('sandbox\u0000__proto__');
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);

    sessionScope.use('sandbox\u0000jordan');
    expect(ids()).toEqual(first);
    sessionScope.use('sandbox\u0000__proto__');
    expect(ids()).toContain('providerPrice');
  });

  it('reads a kept layout back after a restart, ignoring a column this version does not know', async () => {
    answer('views.state', () => ({
      ok: true,
      value: { [LAYOUT_KEY]: { users: [{ user: 'sandbox\u0000kim', layout: { shown: ['region', 'gone-column'], widths: [['status', 180]] } }] } },
    }));
    await loadViewState();
    sessionScope.use('sandbox\u0000kim');
    expect(ids()).toEqual(['cidrId', 'name', 'region']);
    expect(capacityTableLayout.width('status')).toBe(180);
    capacityTableLayout.reset();
    expect(ids()).toContain('status');
  });
});
