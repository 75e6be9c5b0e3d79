/**
 * A count with its noun in the right number ("1 offering", "2,048 offerings").
 * English only, like the rest of the app's words; the forms are passed in because
 * English plurals are not regular ("policy"/"policies").
 */
export function countOf(count: number, one: string, many: string, locale?: string): string {
  return `${count.toLocaleString(locale)} ${count === 1 ? one : many}`;
}
