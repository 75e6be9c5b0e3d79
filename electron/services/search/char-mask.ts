/**
 * A 32-bit summary of which characters a lower-case text holds: one bit per
 * letter a-z, five bits shared by pairs of digits, one bit for everything
 * else. A row whose mask lacks a bit of the needle's mask cannot contain the
 * needle, so a search skips it without looking at its text.
 */
export function charMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i += 1) mask |= bitOf(text.charCodeAt(i));
  return mask >>> 0;
}

/** True when the mask alone decides a match: a needle of one letter (its bit is its own). */
export function isExactByMask(needle: string): boolean {
  if (needle.length !== 1) return false;
  const code = needle.charCodeAt(0);
  return code >= 97 && code <= 122;
}

function bitOf(code: number): number {
  if (code >= 97 && code <= 122) return 1 << (code - 97);
  if (code >= 48 && code <= 57) return 1 << (26 + ((code - 48) >> 1));
  return 1 << 31;
}
