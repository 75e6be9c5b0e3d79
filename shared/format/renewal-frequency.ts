import type { RENEWAL_FREQUENCIES } from '../api/contract-choices.js';

/** A renewal frequency of the contract (CONTRACT: the configure call's choices). */
export type RenewalFrequencyChoice = (typeof RENEWAL_FREQUENCIES)[number];

/** The frequencies in words, for people: the views and whatever the app writes for them (a calendar's events). */
export const FREQUENCY_LABELS: Readonly<Record<RenewalFrequencyChoice, string>> = {
  ONE_WEEK: 'Every week',
  TWO_WEEKS: 'Every two weeks',
  ONE_MONTH: 'Every month',
};

/** A frequency as words; an unknown value as it came. */
export function frequencyLabel(frequency: string | null): string {
  if (frequency === null) return 'No frequency set';
  return Object.hasOwn(FREQUENCY_LABELS, frequency) ? FREQUENCY_LABELS[frequency as RenewalFrequencyChoice] : frequency;
}
