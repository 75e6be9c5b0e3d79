/**
 * How many policies the command palette ranks in the page: the newest pages
 * of the list, plus what each look-up of the whole local copy adds (the main
 * process searches the copy; the page only ranks what came back). Kept apart
 * from the store so bench/palette-search.bench.ts measures these sizes.
 */
export const PALETTE_NEWEST_PAGES = 20;
/** Matches of the whole local copy added per looked-up text. */
export const PALETTE_LOOKUP_LIMIT = 20;
