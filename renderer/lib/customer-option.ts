/** The longest customer name a choice shows whole: a 500-character name would widen its select past the page. */
const OPTION_NAME_CHARS = 80;
/** The longest name a sentence about it (a toast, a dialog's title) shows whole: a 500-character name filled the window. */
const SENTENCE_NAME_CHARS = 60;

/**
 * A name cut to `max` characters with "…" where it is a label, never where it is the thing itself (an export,
 * an edit field, the customer page's title, which holds it whole). Cut between code points, so no half of a
 * surrogate pair is left, and the cut's trailing spaces go with it.
 */
export function shortName(name: string, max: number = SENTENCE_NAME_CHARS): string {
  const points = Array.from(name);
  return points.length > max ? `${points.slice(0, max).join('').trimEnd()}…` : name;
}

/** A customer's name as an option of a choice of customers shows it (cut with "…"; the whole name is the customer page's). */
export function customerOptionLabel(name: string): string {
  return shortName(name, OPTION_NAME_CHARS);
}
