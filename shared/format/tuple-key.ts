/**
 * One string that stands for several, for a Map key or an "is it still the same" check. Joined with "\n" (or ":"),
 * a part holding the separator makes two different tuples one key: profile "a" with user "b\nc" and profile
 * "a\nb" with user "c" were the same owner. JSON of the array is unambiguous: each part is quoted and escaped.
 */
export function tupleKey(...parts: readonly string[]): string {
  return JSON.stringify(parts);
}
