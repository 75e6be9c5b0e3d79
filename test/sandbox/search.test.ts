import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityOfferingList } from '../../shared/api/capacity.js';
import { MESSAGE, OFFERING_STATUSES, QUERY, RULE } from '../../shared/api/contract-choices.js';
import { INSTANCE_CATALOG, PLATFORMS, REGIONS, zoneSupply, type ZoneSupply } from '../../sandbox/seed/catalog.js';
import { Sandbox, expectBody, expectError } from './helpers.js';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await Sandbox.start();
  token = await sandbox.signIn();
});
afterAll(() => sandbox.close());

function zoneWith(supply: ZoneSupply): { instanceType: string; platform: string; zone: string } {
  for (const spec of INSTANCE_CATALOG)
    for (const platform of spec.platforms)
      for (const region of REGIONS)
        for (const zone of region.zones)
          if (zoneSupply(spec.instanceType, platform, zone) === supply) return { instanceType: spec.instanceType, platform, zone };
  throw new Error(`no zone with ${supply} supply`);
}

const search = (query: Record<string, string | number>) => sandbox.call('searchCapacity', token, { query });
const base = (pick: { instanceType: string; platform: string; zone: string }, startDate: string, endDate: string) => ({
  [QUERY.instanceType]: pick.instanceType,
  [QUERY.platform]: pick.platform,
  [QUERY.availabilityZone]: pick.zone,
  [QUERY.startDate]: startDate,
  [QUERY.endDate]: endDate,
});

describe('GET search', () => {
  it('a fully supplied zone offers the whole window as AVAILABLE_ALL', async () => {
    const offers = expectBody(await search(base(zoneWith('all'), '12/01/2026', '12/31/2026')), 200, AvailabilityOfferingList);
    expect(offers).toEqual([
      expect.objectContaining({
        status: 'AVAILABLE_ALL',
        startDateTime: '2026-12-01T00:00:00+00:00',
        endDateTime: '2026-12-31T23:59:59+00:00',
      }),
    ]);
    expect(offers[0]?.title).toContain('12/01/2026');
  });

  it('a zone without supply answers NOT_AVAILABLE', async () => {
    const offers = expectBody(await search(base(zoneWith('none'), '12/01/2026', '12/31/2026')), 200, AvailabilityOfferingList);
    expect(offers.map((o) => o.status)).toEqual(['NOT_AVAILABLE']);
  });

  it('an unknown zone answers NOT_AVAILABLE', async () => {
    const pick = { ...zoneWith('all'), zone: 'mars1-az1' };
    const offers = expectBody(await search(base(pick, '12/01/2026', '12/03/2026')), 200, AvailabilityOfferingList);
    expect(offers.map((o) => o.status)).toEqual(['NOT_AVAILABLE']);
  });

  it('a partly supplied zone answers AVAILABLE_PARTIAL, then the free runs inside the window, the same every time', async () => {
    const query = base(zoneWith('partial'), '01/01/2027', '06/30/2027');
    const offers = expectBody(await search(query), 200, AvailabilityOfferingList);
    expect(offers[0]?.status).toBe('AVAILABLE_PARTIAL');
    expect(offers.length).toBeGreaterThan(1);
    for (const offer of offers.slice(1)) {
      expect(offer.status).toBe('AVAILABLE_ALL');
      expect(Date.parse(offer.startDateTime)).toBeGreaterThanOrEqual(Date.parse(offers[0]?.startDateTime as string));
      expect(Date.parse(offer.endDateTime)).toBeLessThanOrEqual(Date.parse(offers[0]?.endDateTime as string));
      expect(Date.parse(offer.endDateTime)).toBeGreaterThan(Date.parse(offer.startDateTime));
    }
    expect((await search(query)).body).toEqual(offers);
    for (const offer of offers) expect(OFFERING_STATUSES).toContain(offer.status);
  });

  it('reads dates in the client’s zone', async () => {
    const offers = expectBody(
      await search({ ...base(zoneWith('all'), '12/01/2026', '12/02/2026'), [QUERY.clientUtcOffset]: '5.5' }),
      200,
      AvailabilityOfferingList,
    );
    expect(offers[0]?.startDateTime).toBe('2026-12-01T00:00:00+05:30');
    expect(offers[0]?.endDateTime).toBe('2026-12-02T23:59:59+05:30');
    const west = expectBody(
      await search({ ...base(zoneWith('all'), '12/01/2026', '12/01/2026'), [QUERY.clientUtcOffset]: '-8' }),
      200,
      AvailabilityOfferingList,
    );
    expect(west[0]?.startDateTime).toBe('2026-12-01T00:00:00-08:00');
  });

  it('a one-day window and a 366-day window are accepted', async () => {
    expect((await search(base(zoneWith('all'), '03/01/2027', '03/01/2027'))).status).toBe(200);
    expect((await search(base(zoneWith('all'), '01/01/2027', '01/02/2028'))).status).toBe(200);
  });

  it('404 for a type and platform the catalog does not support', async () => {
    const linuxOnly = INSTANCE_CATALOG.find((spec) => !spec.platforms.includes(PLATFORMS.windows));
    if (!linuxOnly) throw new Error('catalog has no Linux-only type');
    const pick = { instanceType: linuxOnly.instanceType, platform: PLATFORMS.windows, zone: 'use1-az1' };
    expectError(await search(base(pick, '12/01/2026', '12/02/2026')), 404, MESSAGE.unsupportedInstance(pick.instanceType, pick.platform));
    const unknown = { instanceType: 'z9.huge', platform: PLATFORMS.linux, zone: 'use1-az1' };
    expectError(await search(base(unknown, '12/01/2026', '12/02/2026')), 404, MESSAGE.unsupportedInstance('z9.huge', PLATFORMS.linux));
  });

  const valid = () => ({ ...base(zoneWith('all'), '12/01/2026', '12/31/2026') });
  it.each([
    ['instanceType missing', { [QUERY.instanceType]: undefined }, MESSAGE.fieldRule(QUERY.instanceType, RULE.required)],
    ['platform empty', { [QUERY.platform]: ' ' }, MESSAGE.fieldRule(QUERY.platform, RULE.required)],
    ['availabilityZone missing', { [QUERY.availabilityZone]: undefined }, MESSAGE.fieldRule(QUERY.availabilityZone, RULE.required)],
    ['startDate missing', { [QUERY.startDate]: undefined }, MESSAGE.fieldRule(QUERY.startDate, RULE.required)],
    ['startDate ISO', { [QUERY.startDate]: '2026-12-01' }, MESSAGE.fieldRule(QUERY.startDate, RULE.date)],
    ['startDate 02/30', { [QUERY.startDate]: '02/30/2027' }, MESSAGE.fieldRule(QUERY.startDate, RULE.date)],
    ['endDate 13/01', { [QUERY.endDate]: '13/01/2026' }, MESSAGE.fieldRule(QUERY.endDate, RULE.date)],
    ['endDate before startDate', { [QUERY.endDate]: '11/30/2026' }, MESSAGE.fieldRule(QUERY.endDate, RULE.endBeforeStart)],
    ['a 367-day window', { [QUERY.endDate]: '12/03/2027' }, MESSAGE.fieldRule(QUERY.endDate, RULE.windowTooLong)],
    ['clientUtcOffset 19', { [QUERY.clientUtcOffset]: '19' }, MESSAGE.fieldRule(QUERY.clientUtcOffset, RULE.utcOffset)],
    ['clientUtcOffset -18.5', { [QUERY.clientUtcOffset]: '-18.5' }, MESSAGE.fieldRule(QUERY.clientUtcOffset, RULE.utcOffset)],
    ['clientUtcOffset text', { [QUERY.clientUtcOffset]: 'UTC' }, MESSAGE.fieldRule(QUERY.clientUtcOffset, RULE.utcOffset)],
  ])('400 for %s', async (_, change, description) => {
    const query: Record<string, string> = { ...valid() };
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete query[key];
      else query[key] = value;
    }
    expectError(await search(query), 400, description);
  });

  it('accepts the offset bounds', async () => {
    for (const offset of ['-18', '18', '0']) expect((await search({ ...valid(), [QUERY.clientUtcOffset]: offset })).status).toBe(200);
  });

  it('401 without a token', async () => {
    expectError(await sandbox.call('searchCapacity', null, { query: valid() }), 401, MESSAGE.tokenUnusable);
  });
});
