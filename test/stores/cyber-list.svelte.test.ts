import { answer, hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { cyberList } from '../../renderer/stores/cyber-list.svelte.js';
import { FROM_COPY, cyberPageOf, profileOf } from './support/fixtures.js';

let runs = 0;
beforeEach(() => {
  resetFakeApi();
  runs += 1;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
  answer('profiles.rememberCustomer', (input) => ({ ok: true, value: profileOf('sandbox', [(input as { customerId: string }).customerId]) }));
});

describe('the DR policy list', () => {
  it("opens the last customer used, with the rows' source", async () => {
    answer('profiles.list', () => ({ ok: true, value: [profileOf('sandbox', ['cust-1'])] }));
    const pages = hold('cyber.list');
    const opening = cyberList.open('sandbox');
    await settle();
    expect(nth(pages, 0).input).toMatchObject({ customerId: 'cust-1', page: 1 });
    nth(pages, 0).ok(cyberPageOf(['dr_1', 'dr_2'], 2, FROM_COPY));
    await opening;
    expect(cyberList.customerId).toBe('cust-1');
    expect(cyberList.items.map((row) => row.cidrId)).toEqual(['dr_1', 'dr_2']);
    expect(cyberList.origin?.source).toBe('replica');
    expect(cyberList.loaded).toBe(true);
  });

  it('drops an older page that arrives after the answer to a newer filter', async () => {
    answer('profiles.list', () => ({ ok: true, value: [profileOf('sandbox', [])] }));
    await cyberList.open('sandbox');
    const pages = hold('cyber.list');
    const older = cyberList.chooseCustomer('cust-2');
    cyberList.setStatus('ACTIVE');
    await settle();
    nth(pages, 1).ok(cyberPageOf(['dr_active'], 1));
    await settle();
    nth(pages, 0).ok(cyberPageOf(['dr_any_1', 'dr_any_2'], 2));
    await older;
    expect(cyberList.items.map((row) => row.cidrId)).toEqual(['dr_active']);
    expect(cyberList.loading).toBe(false);
  });

  it("forgets another user's customer and rows, and drops their page under way", async () => {
    answer('profiles.list', () => ({ ok: true, value: [profileOf('sandbox', [])] }));
    await cyberList.open('sandbox');
    const pages = hold('cyber.list');
    const first = cyberList.chooseCustomer('cust-alex');
    nth(pages, 0).ok(cyberPageOf(['dr_alex'], 1));
    await first;
    const late = cyberList.load();
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    expect(cyberList.customerId).toBeNull();
    expect(cyberList.items).toEqual([]);
    nth(pages, 1).ok(cyberPageOf(['dr_alex'], 1));
    await late;
    expect(cyberList.items).toEqual([]);
    expect(cyberList.loaded).toBe(false);
  });

  it("ignores the remembered customers read for a user who is no longer signed in", async () => {
    const profiles = hold('profiles.list');
    const opening = cyberList.open('sandbox');
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    nth(profiles, 0).ok([profileOf('sandbox', ['cust-alex'])]);
    await opening;
    expect(cyberList.recentCustomers).toEqual([]);
    expect(cyberList.customerId).toBeNull();
  });
});
