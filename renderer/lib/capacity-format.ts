import { DEFAULT_CONFIGURATION } from '../../shared/api/contract-choices.js';
import { FREQUENCY_LABELS, frequencyLabel, type RenewalFrequencyChoice } from '../../shared/format/renewal-frequency.js';
import { countOf } from '../../shared/format/plural.js';

/** Display helpers for capacity policies; dates and times are in dates.ts. */

export function formatDays(days: number | null): string {
  if (days === null) return '—';
  return countOf(days, 'day', 'days');
}

/** "m5.large × 4" */
export function instanceSummary(instance: { readonly instanceType?: string | undefined; readonly qty?: number | undefined }): string {
  return `${instance.instanceType ?? '—'} × ${instance.qty ?? '—'}`;
}

/** The service writes "none" where a configuration field is not set (CONTRACT: the purchase's defaults). */
export function isUnsetConfigValue(value: string): boolean {
  return value === '' || value === DEFAULT_CONFIGURATION.sshPairKey;
}

/** A configuration value as shown where empty fields show nothing: never the service's literal "none". */
export function configValueShown(value: string): string {
  return isUnsetConfigValue(value) ? '' : value;
}

type Frequency = RenewalFrequencyChoice;

// The words for a frequency are shared with what the main process writes for people (a calendar's events).
export { FREQUENCY_LABELS, frequencyLabel };

export function autoRenewalSummary(enabled: boolean, frequency: string | null): string {
  return enabled ? `On · ${frequencyLabel(frequency)}` : 'Off';
}

const SHORT_FREQUENCY: Readonly<Record<Frequency, string>> = {
  ONE_WEEK: 'Weekly',
  TWO_WEEKS: 'Every 2 weeks',
  ONE_MONTH: 'Monthly',
};

/** "Weekly" / "Off": short enough for a table cell (an unknown frequency as it came). */
export function autoRenewalShort(enabled: boolean, frequency: string | null): string {
  if (!enabled) return 'Off';
  if (frequency === null) return 'On';
  return Object.hasOwn(SHORT_FREQUENCY, frequency) ? SHORT_FREQUENCY[frequency as Frequency] : frequency;
}
