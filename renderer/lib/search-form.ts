import { z } from 'zod';
import { SearchInput } from '../../shared/api/capacity.js';
import { isoDateToWire } from '../../shared/format/dates.js';

/** The search form's logic: what the user typed, the query it makes, the rules' messages. */

export const SearchDraft = z.object({
  instanceType: z.string(),
  platform: z.string(),
  availabilityZone: z.string(),
  /** yyyy-MM-dd, what the date entry holds (shown and typed in the user's locale order). */
  startIso: z.string(),
  endIso: z.string(),
  /** Hours east of UTC; null while the box is empty. */
  utcOffset: z.number().nullable(),
});
export type SearchDraft = z.infer<typeof SearchDraft>;

export type SearchField = 'instanceType' | 'platform' | 'availabilityZone' | 'startDate' | 'endDate' | 'clientUtcOffset';
export type SearchErrors = Partial<Record<SearchField, string>>;

export type SearchCheck = { ok: true; input: SearchInput } | { ok: false; errors: SearchErrors };

/** The wire form of the query (dates as MM/dd/yyyy) checked by the shared schema. */
export function checkSearch(draft: SearchDraft): SearchCheck {
  const parsed = SearchInput.safeParse({
    instanceType: draft.instanceType,
    platform: draft.platform,
    availabilityZone: draft.availabilityZone,
    startDate: isoDateToWire(draft.startIso) ?? '',
    endDate: isoDateToWire(draft.endIso) ?? '',
    clientUtcOffset: draft.utcOffset ?? Number.NaN,
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: SearchErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field as SearchField] = issue.message;
  }
  return { ok: false, errors };
}

function isoOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A sensible first window: from tomorrow, 30 days, in local calendar days. */
export function defaultWindow(today: Date): { startIso: string; endIso: string } {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 29);
  return { startIso: isoOf(start), endIso: isoOf(end) };
}

/** The IANA zone name of this computer, for the offset's hint ("Europe/Berlin"). */
export function localZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'this computer';
}

/** A zone ID as the clouds write them: a region's short code and the zone (use1-az1, euc1-az2, apse2-az3). */
const ZONE_ID = /^[a-z]{2,6}\d{1,2}-az\d{1,2}$/i;

/**
 * A warning, not an error, when the zone typed does not look like a zone ID: the service accepts any text and
 * answers "Not available" for a zone it does not know ("Frankfurt", "eu-central-1"), which reads as an answer
 * about capacity that one could pass on to a customer. A zone of the user's own policies (`known`) is never
 * warned about, whatever its form (another cloud may write its zones otherwise).
 */
export function zoneWarning(zone: string, known: readonly string[]): string | null {
  const typed = zone.trim();
  if (typed === '' || ZONE_ID.test(typed) || known.includes(typed)) return null;
  return `“${typed}” is not a zone ID (such as euc1-az1): for a zone it does not know, the service answers “Not available”.`;
}
