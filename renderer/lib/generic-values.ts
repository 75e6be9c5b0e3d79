import type { JsonValue } from '../../shared/api/tolerant.js';
import { formatFraction, formatMoney } from '../../shared/format/money.js';

/**
 * The generic section of a detail view shows whatever the service sent that
 * the designed groups do not: these helpers name its fields for people and
 * decide how each value reads (money, dates and percentages formatted when
 * they look like them; nested objects and lists of objects as sub-tables).
 */

/** Letters that read as an abbreviation, written the way people write them. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  id: 'ID',
  ids: 'IDs',
  cidr: 'CIDR',
  csp: 'CSP',
  dr: 'DR',
  url: 'URL',
  http: 'HTTP',
  https: 'HTTPS',
  ip: 'IP',
  api: 'API',
  vpc: 'VPC',
  ami: 'AMI',
  ssh: 'SSH',
  ebs: 'EBS',
  gpu: 'GPU',
  vcpu: 'vCPU',
  cpu: 'CPU',
  utc: 'UTC',
  az: 'AZ',
  sla: 'SLA',
};

/** "policyDetails" → "Policy details", "cidr_id" → "CIDR ID", "ebsVolumeSize" → "EBS volume size". */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return key;
  return words
    .map((word, index) => {
      const lower = word.toLowerCase();
      const abbreviation = Object.hasOwn(ABBREVIATIONS, lower) ? ABBREVIATIONS[lower] : undefined;
      if (abbreviation) return abbreviation;
      return index === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

export type ValueKind =
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'money'; readonly value: number }
  | { readonly kind: 'percent'; readonly value: number }
  | { readonly kind: 'date'; readonly iso: string; readonly dateOnly: boolean }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'list'; readonly items: readonly JsonValue[] }
  | { readonly kind: 'table'; readonly columns: readonly string[]; readonly rows: ReadonlyArray<Readonly<Record<string, JsonValue>>> }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, JsonValue>> };

const MONEY_KEY = /(price|fee|cost|amount|charge|savings|total|balance|refund|payment)s?$/i;
const PERCENT_KEY = /(percent|percentage|ratio|rate)$/i;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** How a field's value reads, from its name and its value (a number named like money is money). */
export function classifyValue(key: string, value: JsonValue | undefined): ValueKind {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return { kind: 'empty' };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (typeof value === 'number') {
    if (PERCENT_KEY.test(key)) return { kind: 'percent', value };
    if (MONEY_KEY.test(key)) return { kind: 'money', value };
    return { kind: 'number', value };
  }
  if (typeof value === 'string') {
    if (ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) return { kind: 'date', iso: value, dateOnly: false };
    if (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) return { kind: 'date', iso: value, dateOnly: true };
    return { kind: 'text', text: value };
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isRecord)) {
      const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
      return { kind: 'table', columns, rows: value };
    }
    return { kind: 'list', items: value };
  }
  return { kind: 'object', fields: value };
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** One line of text for a value that is not a sub-table ("—" where nothing was sent). */
export function formatValue(kind: ValueKind, locale?: string, currency: string | null = null): string {
  switch (kind.kind) {
    case 'empty':
      return '—';
    case 'text':
      return kind.text;
    case 'number':
      return new Intl.NumberFormat(locale).format(kind.value);
    case 'money':
      return formatMoney(kind.value, currency, locale);
    case 'percent':
      // A fraction (0.22) or already a percentage (22): both read as 22.0%.
      return formatFraction(Math.abs(kind.value) <= 1 ? kind.value : kind.value / 100, locale);
    case 'date':
      return (kind.dateOnly ? dateFormat : dateTimeFormat).format(new Date(kind.iso));
    case 'boolean':
      return kind.value ? 'Yes' : 'No';
    case 'list':
      return kind.items.length === 0 ? '—' : kind.items.map((item) => (isRecord(item) || Array.isArray(item) ? JSON.stringify(item) : formatValue(classifyValue('', item), locale, currency))).join(', ');
    case 'table':
      return `${kind.rows.length} ${kind.rows.length === 1 ? 'entry' : 'entries'}`;
    case 'object':
      return `${Object.keys(kind.fields).length} fields`;
  }
}

/** True for a value shown as its own sub-section (a nested object or a list of objects). */
export function isNested(kind: ValueKind): kind is Extract<ValueKind, { kind: 'table' | 'object' }> {
  return kind.kind === 'table' || kind.kind === 'object';
}

function isRecord(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value a row may lack: its text, or "—" where the service did not send it. */
export function orDash(value: string | number | null | undefined): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return '—';
  return String(value);
}
