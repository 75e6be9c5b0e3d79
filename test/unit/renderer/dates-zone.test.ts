import { afterAll, describe, expect, it, vi } from 'vitest';

// The module's formatters take the zone when they are made: set it before loading.
vi.stubEnv('TZ', 'America/New_York');
const { formatDateTimeWithZone, localZoneName } = await import('../../../renderer/lib/dates.js');
afterAll(() => vi.unstubAllEnvs());

describe('dates that carry their own zone', () => {
  it('names the zone each date falls in: EST in winter, EDT in summer, wherever it is read', () => {
    expect(localZoneName(new Date('2027-01-15T12:00:00Z'))).toBe('EST');
    const winter = formatDateTimeWithZone('2027-01-15T14:00:00Z');
    const summer = formatDateTimeWithZone('2027-07-15T14:00:00Z');
    expect(winter).toMatch(/9:00\sAM EST$/);
    expect(summer).toMatch(/10:00\sAM EDT$/);
    expect(formatDateTimeWithZone('not a date')).toBe('not a date');
  });
});
