/**
 * A search for a count of one instance type, as customers ask for capacity ("do you have 8 x g5.2xlarge?") and account
 * managers say it ("eight g5.2xlarge"): "8 x g5.2xlarge", "8x g5.2xlarge", "8 × g5.2xlarge", "8 g5.2xlarge", "eight
 * g5.2xlarge". Read as the policies of exactly that many instances of that type (the type compared ignoring case).
 * The type must look like one (a letter, then a digit, "." or "_" somewhere: g5.2xlarge, Standard_D2s_v3,
 * n2-standard-8), so text such as "2 web tier" stays a plain search.
 */
export interface QuantitySearch {
  readonly qty: number;
  readonly instanceType: string;
}

const WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

const PATTERN = new RegExp(`^(\\d{1,5}|${WORDS.join('|')})\\s*(?:[x×*]\\s*|\\s)\\s*([a-z][a-z0-9._-]*)$`, 'i');

export function parseQuantitySearch(text: string): QuantitySearch | null {
  const found = PATTERN.exec(text.trim());
  if (!found) return null;
  const [, count = '', type = ''] = found;
  if (!/[\d._]/.test(type) || type.length > 100) return null;
  const qty = /^\d+$/.test(count) ? Number(count) : WORDS.indexOf(count.toLowerCase()) + 1;
  return qty >= 1 ? { qty, instanceType: type } : null;
}
