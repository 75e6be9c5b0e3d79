/** The longest customer name a choice shows whole: a 500-character name would widen its select past the page. */
const OPTION_NAME_CHARS = 80;

/** A customer's name as an option of a choice of customers shows it (cut with "…"; the whole name is the customer page's). */
export function customerOptionLabel(name: string): string {
  return name.length > OPTION_NAME_CHARS ? `${name.slice(0, OPTION_NAME_CHARS)}…` : name;
}
