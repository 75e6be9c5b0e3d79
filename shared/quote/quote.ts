import { z } from 'zod';
import type { CapacityView } from '../api/capacity.js';
import { formatFraction, formatMoney } from '../format/money.js';
import { PaysBy } from '../ipc/customers.js';
import type { AgreementTerms } from '../money/agreement-terms.js';
import { estimateFee, freeUntil, scheduleLines } from '../money/fee-schedule.js';
import { QUOTE_MAX_POLICIES } from './quote-limits.js';

/**
 * A quote a customer can read: ready-for-purchase policies with our price,
 * the provider's, the savings, processing fees, the cancellation schedule of
 * the agreement, a validity date and the account manager's name. One model,
 * written as plain e-mail text here and as a PDF in the main process, so the
 * two always say the same numbers.
 */

const HOUR_MS = 3_600_000;

/**
 * Who the quote is for. A free-text name for now: the customer book (another
 * module) will hand its customer's name here, and nothing else changes.
 */
export const QuoteCustomer = z.object({
  name: z.string().trim().min(1, { error: 'Enter the customer’s name' }).max(500, { error: 'A customer name is at most 500 characters' }),
});

export { QUOTE_MAX_POLICIES } from './quote-limits.js';

export const QuoteRequest = z.object({
  policyIds: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'A policy id has only letters, digits, _ and -' }))
    .min(1, { error: 'Choose at least one policy' })
    .max(QUOTE_MAX_POLICIES, { error: `A quote has at most ${QUOTE_MAX_POLICIES} policies` })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'Each policy appears once' }),
  customer: QuoteCustomer,
  accountManager: z.string().trim().min(1, { error: 'Enter your name' }).max(200, { error: 'A name is at most 200 characters' }),
  /** The last day the prices hold, as YYYY-MM-DD. */
  validUntil: z.iso.date({ error: 'Enter the date the quote is valid until' }),
  /** The customer's UTC offset in hours, to show each window as they read time. */
  customerUtcOffset: z.number().min(-18).max(18),
  paper: z.enum(['A4', 'Letter']),
  /**
   * How the customer pays (the book's "Pays by", or chosen in the dialog): the one processing fee that applies is
   * added to the total. Absent when not known: both totals are given, as alternatives.
   */
  paysBy: PaysBy.optional(),
});
export type QuoteRequest = z.infer<typeof QuoteRequest>;

export const QuoteResult = z.object({
  fileName: z.string(),
  /** The PDF's bytes, base64 (the IPC carries JSON). */
  pdfBase64: z.string(),
  /** The same quote as plain text for an e-mail. */
  text: z.string(),
  /** Characters the PDF's font cannot show were written as "?" (the text keeps them). */
  replacedCharacters: z.boolean(),
});
export type QuoteResult = z.infer<typeof QuoteResult>;

export interface QuoteLine {
  readonly cidrId: string;
  readonly policyName: string;
  /** "4 × m5.large" per instance group. */
  readonly instances: string;
  readonly platform: string;
  readonly zone: string;
  readonly window: string;
  readonly ourPrice: number;
  readonly providerPrice: number;
  readonly savings: number;
  readonly savingsFraction: number;
  readonly cardFee: number | null;
  readonly bankFee: number | null;
  /**
   * What the quote's dates mean for this policy, in words: it launches before the quote's validity ends (it can be
   * bought only until then), or canceling it once bought would already cost a fee under the agreement's schedule.
   */
  readonly timing: readonly string[];
}

/** What the customer pays by one way of paying: our price and that way's processing fees, summed in cents. */
export interface QuoteTotalBy {
  readonly paysBy: PaysBy;
  readonly fees: number;
  /** Our price plus the fees: what the customer will pay this way. */
  readonly toPay: number;
  /** Policies that state no fee for this way of paying (the service's null): nothing is added for them. */
  readonly noFeeStated: readonly string[];
}

export interface Quote {
  readonly customerName: string;
  readonly accountManager: string;
  readonly validUntil: string;
  readonly preparedAt: string;
  readonly currency: string | null;
  readonly lines: readonly QuoteLine[];
  readonly total: { readonly ourPrice: number; readonly providerPrice: number; readonly savings: number; readonly savingsFraction: number };
  /** How the customer pays, when known: then `toPay` holds that way alone; else both ways, card first, as alternatives. */
  readonly paysBy: PaysBy | null;
  readonly toPay: readonly QuoteTotalBy[];
  /** The agreement's cancellation schedule in words; empty when it is unknown. */
  readonly cancellation: readonly string[];
  readonly paper: QuoteRequest['paper'];
}

/** The quote of these policies (in the order asked), under the environment's terms. */
export function buildQuote(request: QuoteRequest, policies: readonly CapacityView[], terms: AgreementTerms, now: Date): Quote {
  const lines = policies.map((view): QuoteLine => {
    const pricing = view.pricing;
    return {
      cidrId: view.policyDetails.cidrId,
      policyName: view.policyDetails.policyName,
      instances: view.instances.map((instance) => `${instance.qty} × ${instance.instanceType}`).join(', '),
      platform: [...new Set(view.instances.map((instance) => instance.platformCode))].join(', '),
      zone: view.regionSettings.availabilityZoneId,
      window: `${atOffset(view.dates.launchDateTime, request.customerUtcOffset)} to ${atOffset(view.dates.endDateTime, request.customerUtcOffset)}`,
      ourPrice: pricing.ourPrice,
      providerPrice: pricing.cspProviderPrice,
      savings: pricing.savings,
      savingsFraction: pricing.savingsPercentage,
      cardFee: pricing.creditCardProcessingFee,
      bankFee: pricing.bankAccountProcessingFee,
      timing: timingNotes(view, request, terms, now.getTime()),
    };
  });
  // Summed in whole cents (integers), so a total is exact however many lines it adds.
  const sum = (pick: (line: QuoteLine) => number | null) => fromCents(lines.reduce((total, line) => total + toCents(pick(line) ?? 0), 0));
  const ourPrice = sum((line) => line.ourPrice);
  const providerPrice = sum((line) => line.providerPrice);
  const savings = sum((line) => line.savings);
  const paysBy = request.paysBy ?? null;
  const totalBy = (way: PaysBy): QuoteTotalBy => {
    const fee = (line: QuoteLine) => (way === 'card' ? line.cardFee : line.bankFee);
    const fees = sum(fee);
    return { paysBy: way, fees, toPay: fromCents(toCents(ourPrice) + toCents(fees)), noFeeStated: lines.filter((line) => fee(line) === null).map((line) => line.cidrId) };
  };
  return {
    customerName: request.customer.name,
    accountManager: request.accountManager,
    validUntil: request.validUntil,
    preparedAt: now.toISOString().slice(0, 10),
    currency: terms.currency,
    lines,
    total: { ourPrice, providerPrice, savings, savingsFraction: providerPrice > 0 ? savings / providerPrice : 0 },
    paysBy,
    toPay: paysBy ? [totalBy(paysBy)] : [totalBy('card'), totalBy('bank')],
    cancellation: scheduleLines(terms.cancellation),
    paper: request.paper,
  };
}

/**
 * A policy launching while the quote holds, or inside a band of the fee schedule, is a conversation to have before
 * it is bought (an account manager's day, day13: a quote valid until the 11th held a policy launching on the 9th,
 * already in the 10 % band). Said per policy, from the agreement's schedule: the fee of a cancel right after buying.
 */
function timingNotes(view: CapacityView, request: QuoteRequest, terms: AgreementTerms, nowMs: number): string[] {
  const launchMs = Date.parse(view.dates.launchDateTime);
  const endMs = Date.parse(view.dates.endDateTime);
  if (Number.isNaN(launchMs) || Number.isNaN(endMs)) return [];
  // The quote's last day ends at midnight where the customer reads it.
  const validEndMs = Date.parse(`${request.validUntil}T00:00:00Z`) + 24 * HOUR_MS - request.customerUtcOffset * HOUR_MS;
  const notes: string[] = [];
  if (launchMs <= validEndMs) notes.push(`Launches ${atOffset(view.dates.launchDateTime, request.customerUtcOffset)}, before this quote's validity ends: it can be bought only until then.`);
  const fee = (atMs: number) => estimateFee(terms.cancellation, { ourPrice: view.pricing.ourPrice, launchMs, endMs }, atMs);
  const money = (amount: number) => formatMoney(amount, terms.currency, 'en-US');
  const now = fee(nowMs);
  if (now && now.fee > 0) {
    notes.push(`Once bought, canceling it costs a fee from the start: ${money(now.fee)} now (${now.rule}), more as its launch nears.`);
    return notes;
  }
  const lastPurchaseMs = Math.min(validEndMs, launchMs);
  const later = fee(lastPurchaseMs);
  const free = freeUntil(terms.cancellation, launchMs, nowMs);
  if (later && later.fee > 0 && free !== null) {
    notes.push(`Canceling it once bought is free until ${atOffset(new Date(free).toISOString(), request.customerUtcOffset)}; after that it costs a fee (${later.rule}: ${money(later.fee)}).`);
  }
  return notes;
}

/** The texts of a quote, shared by the e-mail and the PDF: amounts always with the currency (en-US digits, as a document sent abroad). */
export function quoteMoney(quote: Quote, amount: number | null): string {
  return amount === null ? 'not offered' : formatMoney(amount, quote.currency, 'en-US');
}

export function quotePercent(fraction: number): string {
  return formatFraction(fraction, 'en-US');
}

const WAY: Readonly<Record<PaysBy, string>> = { card: 'card', bank: 'bank transfer' };

/**
 * A policy's processing fee as the quote says it: the one that applies when the customer's way of paying is known,
 * else both, as the alternatives they are. A fee the service states as null is "none stated" (nothing is added).
 */
export function quoteFeeLine(quote: Quote, line: QuoteLine): string {
  const fee = (way: PaysBy) => {
    const amount = way === 'card' ? line.cardFee : line.bankFee;
    return amount === null ? 'none stated' : quoteMoney(quote, amount);
  };
  if (quote.paysBy) return `Processing fee (${WAY[quote.paysBy]}, as you pay): ${fee(quote.paysBy)}`;
  return `Processing fee, by how you pay: card ${fee('card')}, or bank transfer ${fee('bank')}`;
}

/**
 * The total the customer will pay: our price plus the processing fees of their way of paying, both named; when the
 * way is not known, one total per way, said to be alternatives (day17: the total was the price alone).
 */
export function quoteTotalLines(quote: Quote): string[] {
  const parts = (total: QuoteTotalBy) => {
    const missing = total.noFeeStated.length;
    const none = missing === 0 ? '' : `; no ${WAY[total.paysBy]} fee is stated for ${missing === 1 ? '1 policy' : `${missing} policies`}`;
    return `our price ${quoteMoney(quote, quote.total.ourPrice)} + ${WAY[total.paysBy]} processing fees ${quoteMoney(quote, total.fees)}${none}`;
  };
  const [only] = quote.toPay;
  if (quote.paysBy && only) return [`Total: ${quoteMoney(quote, only.toPay)} (${parts(only)})`];
  return [
    'Total, by how you pay (one of these applies):',
    ...quote.toPay.map((total) => `- paying by ${WAY[total.paysBy]}: ${quoteMoney(quote, total.toPay)} (${parts(total)})`),
  ];
}

export const CURRENCY_NOT_STATED = 'Amounts are in the currency of our agreement (not set in Capacity Desk).';
export const CANCELLATION_UNKNOWN = 'Cancellation fees: as in our agreement (the schedule is not entered in Capacity Desk; ask us before canceling).';

/** The quote as plain text for an e-mail. */
export function quoteText(quote: Quote): string {
  const out: string[] = [
    `Quote for ${quote.customerName}`,
    `Prepared ${quote.preparedAt} by ${quote.accountManager}; valid until ${quote.validUntil}.`,
    ...(quote.currency === null ? [CURRENCY_NOT_STATED] : []),
    '',
  ];
  quote.lines.forEach((line, index) => {
    out.push(
      `${index + 1}. ${line.policyName} (${line.cidrId})`,
      `   ${line.instances}, ${line.platform}, zone ${line.zone}`,
      `   Window: ${line.window}`,
      `   Our price: ${quoteMoney(quote, line.ourPrice)} (provider price ${quoteMoney(quote, line.providerPrice)})`,
      `   Savings: ${quoteMoney(quote, line.savings)} (${quotePercent(line.savingsFraction)})`,
      `   ${quoteFeeLine(quote, line)}`,
      ...line.timing.map((note) => `   Note: ${note}`),
      '',
    );
  });
  out.push(
    ...quoteTotalLines(quote),
    `Against the provider's price ${quoteMoney(quote, quote.total.providerPrice)}: savings ${quoteMoney(quote, quote.total.savings)} (${quotePercent(quote.total.savingsFraction)})`,
    '',
    ...(quote.cancellation.length > 0 ? ['Cancellation fees (of our price, by when a policy is canceled):', ...quote.cancellation.map((line) => `- ${line}`)] : [CANCELLATION_UNKNOWN]),
  );
  return out.join('\n');
}

/** "2026-12-01 00:00 UTC+01:00": the instant as the customer reads it. */
export function atOffset(iso: string, offsetHours: number): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const shifted = new Date(ms + offsetHours * HOUR_MS).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 16)} ${offsetLabel(offsetHours)}`;
}

function offsetLabel(offsetHours: number): string {
  if (offsetHours === 0) return 'UTC';
  const minutes = Math.round(Math.abs(offsetHours) * 60);
  return `UTC${offsetHours < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** An amount of two decimals as whole cents: the service's amounts are decimals that a double holds only nearly. */
function toCents(amount: number): number {
  return Math.round(amount * 100);
}

function fromCents(cents: number): number {
  return cents / 100;
}
