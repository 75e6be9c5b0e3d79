/**
 * Prices. The service names no currency ("not shown" in its description), so
 * amounts are plain numbers with two decimals and the UI labels what they are.
 * One formatter for the whole app, so a currency, once known, is one edit.
 */

/**
 * The currency of prices: the service does not state it (docs/contract-choices.md),
 * so none is shown beside an amount, and the views say so once, plainly.
 */
export const CURRENCY: string | null = null;
export const CURRENCY_UNKNOWN_NOTE = 'Amounts are in the currency of your agreement with the service; it does not state which.';

const amountFormats = new Map<string, Intl.NumberFormat>();
const percentFormats = new Map<string, Intl.NumberFormat>();

function cached(cache: Map<string, Intl.NumberFormat>, locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = locale ?? '';
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    cache.set(key, format);
  }
  return format;
}

/** 1234.5 -> "1,234.50" (grouping of the locale, always two decimals). */
export function formatAmount(value: number, locale?: string): string {
  if (!Number.isFinite(value)) return '—';
  return cached(amountFormats, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/** An amount that may be missing (processing fees are null when not offered). */
export function formatOptionalAmount(value: number | null | undefined, locale?: string): string {
  return value === null || value === undefined ? '—' : formatAmount(value, locale);
}

/** A fraction as a percentage: 0.2218 -> "22.2%" (savingsPercentage is a fraction). */
export function formatFraction(fraction: number, locale?: string): string {
  if (!Number.isFinite(fraction)) return '—';
  return cached(percentFormats, locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(fraction);
}
