/**
 * A value made at its first use, then kept. The kept view state's schemas are made this way: the page's first code
 * is evaluated before the overview can mount, and making zod schemas was most of that evaluation's work (issue 25,
 * branch overview16); a schema is needed only when a kept value is read back or a view is saved.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { readonly value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}
