/**
 * Text from the service is shown with its invisible controls made visible.
 *
 * Bidirectional controls reorder what follows them (`Invoice \u202Efdp.exe`
 * reads "Invoice exe.pdf"), and zero-width characters make two different names
 * look the same or hide a break inside an id. Shown as `[U+202E]`, a reader sees
 * that something is there and what it is. Exports and copies keep the raw
 * value: this is for display only.
 */

/**
 * Bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069), the
 * directional marks (LRM, RLM, ALM), zero-width space, joiners and non-joiner
 * (U+200B-200D), word joiner and invisible operators (U+2060-2064), the
 * byte-order mark used as a zero-width no-break space (U+FEFF), the Mongolian
 * vowel separator (U+180E) and the soft hyphen (U+00AD).
 */
const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const HAS_INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
/**
 * A zero-width joiner inside a recommended emoji ZWJ sequence ("👨‍👩‍👧", "🏳️‍🌈": Unicode's RGI_Emoji, a property of
 * strings) is how that one emoji is spelled, not something hidden: it draws as one glyph, so it cannot make two names
 * look alike, and shown as [U+200D] the family read "👨[U+200D]👩[U+200D]👧". Any other joiner, "👍‍👍" included
 * (no such emoji: it draws as two thumbs, like "👍👍"), is still made visible. Built at run time: the `v` flag is
 * newer than the TypeScript target, and Node 20 and Chromium both have it.
 * Made at its first use, for a text with a joiner (issue 25, branch overview18): compiling Unicode's emoji sequences
 * was about a third of the page's first code's evaluation (sampled at three launches), and the main process's too,
 * while almost no text has a joiner.
 */
let rgiEmoji: RegExp | null = null;

/** The offsets of the joiners that spell an emoji. */
function emojiJoiners(text: string): ReadonlySet<number> {
  const kept = new Set<number>();
  if (!text.includes('\u200D')) return kept;
  rgiEmoji ??= new RegExp('\\p{RGI_Emoji}', 'gv');
  for (const match of text.matchAll(rgiEmoji)) {
    for (let at = match[0].indexOf('\u200D'); at !== -1; at = match[0].indexOf('\u200D', at + 1)) kept.add(match.index + at);
  }
  return kept;
}

/** True when `visibleText` would change the text (so a text shown once is never changed again). */
export function hasInvisibleControls(text: string): boolean {
  return HAS_INVISIBLE.test(text) && visibleText(text) !== text;
}

/** The text with every bidi control and zero-width character replaced by a visible `[U+XXXX]`, an emoji's joiners kept. */
export function visibleText(text: string): string {
  if (!HAS_INVISIBLE.test(text)) return text;
  const kept = emojiJoiners(text);
  return text.replace(INVISIBLE, (char: string, offset: number) =>
    kept.has(offset) ? char : `[U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
