/**
 * A count with its noun in the right number ("1 offering", "2,048 offerings").
 * English only, like the rest of the app's words; the forms are passed in because
 * English plurals are not regular ("policy"/"policies").
 */
export function countOf(count: number, one: string, many: string, locale?: string): string {
  return `${formatCount(count, locale)} ${count === 1 ? one : many}`;
}

const countFormats = new Map<string, Intl.NumberFormat>();

/**
 * A count as the locale writes it ("2,048"), as `toLocaleString` does, with one formatter a locale: toLocaleString
 * builds a formatter of its own at every call (about 0.1 ms), and a search keystroke's answer writes five or six
 * counts in the list's summary and pager, in the work before its frame (issues 25/26, branch keys14).
 */
export function formatCount(count: number, locale?: string): string {
  const key = locale ?? '';
  let format = countFormats.get(key);
  if (!format) countFormats.set(key, (format = new Intl.NumberFormat(locale)));
  return format.format(count);
}
