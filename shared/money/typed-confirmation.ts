/**
 * The deliberate step before a cancel with a fee: the person types the
 * policy id or the fee. An amount is read as people type it: with or
 * without the currency code, grouping or a decimal comma ("12,205.21",
 * "USD 12205.21", "12.205,21").
 */
export function confirmsCancel(typed: string, cidrId: string, fee: number | null): boolean {
  const text = typed.trim();
  if (text === '') return false;
  if (text.toLowerCase() === cidrId.toLowerCase()) return true;
  if (fee === null) return false;
  const amount = amountOf(text);
  return amount !== null && Math.abs(amount - fee) < 0.005;
}

/**
 * The same deliberate step for a bulk cancel: the number of policies canceled,
 * or the estimated total fee (when every fee could be estimated).
 */
export function confirmsBulkCancel(typed: string, count: number, total: number | null): boolean {
  const text = typed.trim();
  if (text === '') return false;
  if (/^\d+$/.test(text) && Number(text) === count) return true;
  if (total === null) return false;
  const amount = amountOf(text);
  return amount !== null && Math.abs(amount - total) < 0.005;
}

function amountOf(text: string): number | null {
  const bare = text.replace(/[^\d.,]/g, '');
  if (!/\d/.test(bare)) return null;
  const lastDot = bare.lastIndexOf('.');
  const lastComma = bare.lastIndexOf(',');
  const decimalAt = Math.max(lastDot, lastComma);
  // A separator followed by one or two digits at the end is the decimal one; any other is grouping.
  const isDecimal = decimalAt >= 0 && bare.length - decimalAt - 1 <= 2 && bare.length - decimalAt - 1 >= 1;
  const whole = (isDecimal ? bare.slice(0, decimalAt) : bare).replace(/[.,]/g, '');
  const fraction = isDecimal ? bare.slice(decimalAt + 1) : '';
  const value = Number(`${whole || '0'}.${fraction || '0'}`);
  return Number.isFinite(value) ? value : null;
}
