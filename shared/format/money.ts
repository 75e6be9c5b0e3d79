/**
 * Prices. The service names no currency ("not shown" in its description): it
 * is a term of the agreement, kept with the environment
 * (shared/money/agreement-terms.ts). `formatMoney` is the one formatter of an
 * amount with its currency; until the currency is set, amounts are plain
 * numbers and the views say so once, with this note.
 */
export const CURRENCY_NOT_SET_NOTE =
  'No currency is set for this environment, so amounts are shown without one. Set it under Manage environments… (sign-in screen).';

const amountFormats = new Map<string, Intl.NumberFormat>();
const moneyFormats = new Map<string, Intl.NumberFormat>();
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

/**
 * 1234.5 in USD -> "USD 1,234.50": the code rather than a symbol, since "$"
 * is also the Canadian, Australian and Singapore dollar. Without a currency
 * (not set yet) the plain amount, as formatAmount.
 */
export function formatMoney(value: number | null | undefined, currency: string | null, locale?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (currency === null) return formatAmount(value, locale);
  const key = `${locale ?? ''}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: 2, maximumFractionDigits: 2 });
    moneyFormats.set(key, format);
  }
  return format.format(value);
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
