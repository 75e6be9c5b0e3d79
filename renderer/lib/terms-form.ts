import type { AgreementTerms } from '../../shared/money/agreement-terms.js';

/** The agreement terms as the environment editor holds them: text as typed. */
export interface TermsDraft {
  currency: string;
  scheduleKnown: boolean;
  rows: { days: string; percent: string }[];
  afterLaunchPercent: string;
  afterLaunchOfRemainingWindow: boolean;
}

/** What the editor starts from: the environment's terms, or a first row to fill. */
export function draftOf(terms: AgreementTerms): TermsDraft {
  const schedule = terms.cancellation;
  return {
    currency: terms.currency ?? '',
    scheduleKnown: schedule.kind === 'known',
    rows:
      schedule.kind === 'known'
        ? schedule.beforeLaunch.map((step) => ({ days: String(step.daysBeforeLaunch), percent: String(step.percent) }))
        : [{ days: '0', percent: '' }],
    afterLaunchPercent: schedule.kind === 'known' ? String(schedule.afterLaunch.percent) : '',
    afterLaunchOfRemainingWindow: schedule.kind === 'known' ? schedule.afterLaunch.ofRemainingWindow : true,
  };
}

/** An empty box is "not entered" (NaN, which the schema names), never 0. */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.'));
}

/** The draft as input to the profile schema (AgreementTerms checks it). */
export function termsInput(draft: TermsDraft): unknown {
  return {
    currency: draft.currency.trim() === '' ? null : draft.currency,
    cancellation: draft.scheduleKnown
      ? {
          kind: 'known',
          beforeLaunch: draft.rows.map((row) => ({ daysBeforeLaunch: numberOf(row.days), percent: numberOf(row.percent) })),
          afterLaunch: { percent: numberOf(draft.afterLaunchPercent), ofRemainingWindow: draft.afterLaunchOfRemainingWindow },
        }
      : { kind: 'unknown' },
  };
}

/** Which editor field an issue of `terms` belongs to: the currency, or the schedule as a whole. */
export function termsField(path: readonly PropertyKey[]): 'currency' | 'schedule' | null {
  if (path[0] !== 'terms') return null;
  return path[1] === 'currency' ? 'currency' : 'schedule';
}
