import { describe, expect, it } from 'vitest';
import { ProfileInput } from '../../../shared/ipc/profiles.js';
import { SANDBOX_TERMS, UNKNOWN_TERMS } from '../../../shared/money/agreement-terms.js';
import { draftOf, termsField, termsInput } from '../../../renderer/lib/terms-form.js';

const base = { name: 'Prod', baseUrl: 'https://api.example.com' };

describe('the environment editor’s terms', () => {
  it('round-trips the Sandbox’s terms through the editor unchanged', () => {
    expect(ProfileInput.parse({ ...base, terms: termsInput(draftOf(SANDBOX_TERMS)) }).terms).toEqual(SANDBOX_TERMS);
    expect(ProfileInput.parse({ ...base, terms: termsInput(draftOf(UNKNOWN_TERMS)) }).terms).toEqual(UNKNOWN_TERMS);
  });

  it('reads an empty box as not entered (never 0) and a decimal comma as a point', () => {
    const draft = { ...draftOf(UNKNOWN_TERMS), scheduleKnown: true, rows: [{ days: '0', percent: '' }], afterLaunchPercent: '12,5' };
    const parsed = ProfileInput.safeParse({ ...base, terms: termsInput(draft) });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.issues.map((issue) => [termsField(issue.path), issue.message])).toEqual([['schedule', 'Enter the % of the price']]);
    draft.rows = [{ days: '0', percent: '25' }];
    expect(ProfileInput.parse({ ...base, terms: termsInput(draft) }).terms?.cancellation).toMatchObject({ afterLaunch: { percent: 12.5 } });
  });

  it('names the currency field for a currency issue, the schedule for the rest', () => {
    expect(termsField(['terms', 'currency'])).toBe('currency');
    expect(termsField(['terms', 'cancellation', 'beforeLaunch', 0, 'percent'])).toBe('schedule');
    expect(termsField(['name'])).toBeNull();
  });
});
