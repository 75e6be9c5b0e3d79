/** The longest customer name a choice shows whole: a 500-character name would widen its select past the page. */
const OPTION_NAME_CHARS = 80;
/** The longest name a sentence about it (a toast, a dialog's title) shows whole: a 500-character name filled the window. */
const SENTENCE_NAME_CHARS = 60;

/** Splits text into what a reader sees as one character: a flag, a joined emoji, a letter with its accents. */
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A name cut to `max` characters with "…" where it is a label, never where it is the thing itself (an export,
 * an edit field, the customer page's title, which holds it whole). A character here is a grapheme: cut between
 * code points, a flag (two regional indicators), a joined emoji (ZWJ sequence), a skin tone or a combining
 * accent could be split and show half of itself. The cut's trailing spaces go with it.
 */
export function shortName(name: string, max: number = SENTENCE_NAME_CHARS): string {
  // Most names are short: no segmenting unless the name has more UTF-16 units than the cut allows.
  if (name.length <= max) return name;
  let kept = 0;
  for (const { index } of graphemes.segment(name)) {
    if (kept === max) return `${name.slice(0, index).trimEnd()}…`;
    kept += 1;
  }
  return name;
}

/** A customer's name as an option of a choice of customers shows it (cut with "…"; the whole name is the customer page's). */
export function customerOptionLabel(name: string): string {
  return shortName(name, OPTION_NAME_CHARS);
}
