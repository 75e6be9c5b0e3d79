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

/** True when `visibleText` would change the text. */
export function hasInvisibleControls(text: string): boolean {
  return HAS_INVISIBLE.test(text);
}

/** The text with every bidi control and zero-width character replaced by a visible `[U+XXXX]`. */
export function visibleText(text: string): string {
  if (!HAS_INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, (char) => `[U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`);
}
