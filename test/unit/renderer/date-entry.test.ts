import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_ENTRY_YEARS, dateEntryFormat, readDateEntry, stepDays, stepMonths } from '../../../renderer/lib/date-entry.js';

/** Locales with every order of day, month and year, their separators, and right-to-left scripts that insert direction marks. */
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'nl-NL', 'ja-JP', 'ko-KR', 'zh-CN', 'sv-SE', 'hu-HU', 'ar-EG', 'fa-IR', 'he-IL', 'th-TH', 'hi-IN', 'en-CA', 'lt-LT'];

const isoDay = fc
  .integer({ min: Date.UTC(DATE_ENTRY_YEARS.min, 0, 1) / 86_400_000, max: Date.UTC(DATE_ENTRY_YEARS.max, 11, 31) / 86_400_000 })
  .map((epochDay) => new Date(epochDay * 86_400_000).toISOString().slice(0, 10));

describe('a typed day (issue 29: the native date field let an end date become year 262027)', () => {
  it('what is written in any locale reads back as the same day, and so does YYYY-MM-DD', () => {
    fc.assert(
      // One format per locale, as a form keeps its own: building an Intl formatter 2,000 times took
      // past the unit limit on a loaded machine, and is not what is tested.
      fc.property(fc.constantFrom(...LOCALES.map((locale) => dateEntryFormat(locale))), isoDay, (format, iso) => {
        expect(readDateEntry(format.write(iso), format)).toEqual({ kind: 'day', iso });
        expect(readDateEntry(iso, format)).toEqual({ kind: 'day', iso });
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads the locale's order and shows its pattern", () => {
    const us = dateEntryFormat('en-US');
    const de = dateEntryFormat('de-DE');
    expect([us.pattern, de.pattern, dateEntryFormat('ja-JP').pattern]).toEqual(['MM/DD/YYYY', 'DD.MM.YYYY', 'YYYY/MM/DD']);
    expect(readDateEntry('3/4/2026', us)).toEqual({ kind: 'day', iso: '2026-03-04' });
    expect(readDateEntry('3.4.2026', de)).toEqual({ kind: 'day', iso: '2026-04-03' });
    expect(readDateEntry(' 12 / 01 / 2026 ', us)).toEqual({ kind: 'day', iso: '2026-12-01' });
    expect(readDateEntry('', us)).toEqual({ kind: 'empty' });
    expect(readDateEntry('   ', us)).toEqual({ kind: 'empty' });
  });

  it('says what is wrong with an impossible or unreadable day, and never guesses one', () => {
    const us = dateEntryFormat('en-US');
    const said = (text: string) => {
      const reading = readDateEntry(text, us);
      return reading.kind === 'problem' ? reading.message : reading;
    };
    expect(said('02/30/2026')).toBe('There is no day 30 in February 2026: it has 28 days.');
    expect(said('02/29/2028')).toEqual({ kind: 'day', iso: '2028-02-29' });
    expect(said('13/01/2026')).toBe('There is no month 13: months go from 1 to 12.');
    expect(said('00/10/2026')).toBe('There is no month 0: months go from 1 to 12.');
    expect(said('12/00/2026')).toBe('There is no day 0 in December 2026: it has 31 days.');
    expect(said('12/01/262027')).toBe('Write the year with four digits, e.g. 12/01/2026.');
    expect(said('262027-12-01')).toBe('Write the year with four digits, e.g. 12/01/2026.');
    expect(said('12/01/26')).toBe('Write the year with four digits, e.g. 12/01/2026.');
    expect(said('12/01/9999')).toBe('Choose a year from 2000 to 2099.');
    expect(said('12/01/1999')).toBe('Choose a year from 2000 to 2099.');
    const howTo = 'Write the date as MM/DD/YYYY (e.g. 12/01/2026) or YYYY-MM-DD.';
    for (const hostile of ['__proto__', 'constructor', 'Dec 1 2026', '12/01', '1/2/3/2026', '12a/01/2026', '1e3/2/2026', '\u202E2026-12-01', '\u0663/\u0664/\u0662\u0660\u0662\u0666', '1'.repeat(500), '120/01/2026', '-12/01/2026x']) {
      expect(said(hostile), JSON.stringify(hostile.slice(0, 20))).toBe(howTo);
    }
  });

  it('any text at all gets a day or a message, never an exception', () => {
    const us = dateEntryFormat('en-US');
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (text) => {
        const reading = readDateEntry(text, us);
        if (reading.kind === 'day') expect(readDateEntry(us.write(reading.iso), us)).toEqual(reading);
        else if (reading.kind === 'problem') expect(reading.message).toMatch(/\.$/);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('stepping with the keyboard', () => {
  it('a day at a time across months, years and a leap day; a month keeps the day or takes the month’s last', () => {
    expect(stepDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(stepDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(stepDays('2026-01-01', -1)).toBe('2025-12-31');
    // The day a clock changes (the US on 8 March 2026) is a day like any other.
    expect(stepDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(stepMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(stepMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(stepMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(stepMonths('2026-12-15', 1)).toBe('2027-01-15');
  });

  it('stays within the years', () => {
    expect(stepDays('2099-12-31', 1)).toBe('2099-12-31');
    expect(stepMonths('2000-01-10', -1)).toBe('2000-01-01');
    fc.assert(
      fc.property(isoDay, fc.integer({ min: -5_000, max: 5_000 }), (iso, n) => {
        const us = dateEntryFormat('en-US');
        for (const stepped of [stepDays(iso, n), stepMonths(iso, n)]) expect(readDateEntry(stepped, us)).toEqual({ kind: 'day', iso: stepped });
      }),
    );
  });
});
