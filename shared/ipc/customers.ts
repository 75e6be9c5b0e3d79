import { z } from 'zod';
import { CapacityRow } from '../api/readers.js';
import { ActivityEntry } from '../own-data/activity.js';
import { OwnDataRecovery } from '../own-data/status.js';
import { CustomerId } from './policy-refs.js';
import { PolicyMilestone } from './overview.js';
import { CustomerKey } from './customer-key.js';

/**
 * The account manager's customer book: their own data (never a copy of the
 * service's), kept per environment and user in the own-data store. A customer
 * is what people say ("Northwind"); it owns DR ids (`cid_ext`) and linked cloud
 * accounts, through which policies are matched to it (shared/customers/matching.ts).
 */

export const CUSTOMER_LIMITS = { name: 500, contact: 500, notes: 20_000, account: 200, idsPerCustomer: 200, accountsPerCustomer: 500 } as const;

/** Refuses the characters that reorder or hide text, so a name reads as it sorts and as it is stored. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

// eslint-disable-next-line no-control-regex -- these are exactly what it refuses
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;

const visibleText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label} is at most ${max} characters` })
    .refine((text) => !BIDI_CONTROLS.test(text), { error: `${label} holds a hidden text-direction character; type it again without it` })
    .refine((text) => !CONTROL_CHARACTERS.test(text), { error: `${label} is one line, without tabs or line breaks` });

export const CustomerName = visibleText('A customer name', CUSTOMER_LIMITS.name).pipe(z.string().min(1, { error: 'Enter the customer’s name' }));

/** A linked account as the capacity policies name it (`cspAccountName`) or as the accounts list does (id or name). */
export const AccountRef = visibleText('An account', CUSTOMER_LIMITS.account).pipe(
  z
    .string()
    .min(1, { error: 'An account cannot be empty' })
    // A list cell of the exported book separates accounts with it (shared/customers/book-csv.ts).
    .refine((text) => !text.includes(';'), { error: 'An account has no “;” (it separates accounts in an exported book)' }),
);

/**
 * How a customer pays for what they buy: the service states a card and a bank-transfer processing fee for each
 * policy, not which one the customer pays; the account manager knows, and the customer page then shows that fee.
 */
export const PAYS_BY = ['card', 'bank'] as const;
export const PaysBy = z.enum(PAYS_BY, { error: 'Pays by is “Card” or “Bank transfer” (or empty when not known)' });
export type PaysBy = z.infer<typeof PaysBy>;

/** What a person types for a customer: the book checks that names, ids and accounts are each one customer's. */
export const CustomerDraft = z
  .object({
    /** Absent for a new customer. */
    key: CustomerKey.optional(),
    name: CustomerName,
    externalIds: z.array(CustomerId).max(CUSTOMER_LIMITS.idsPerCustomer).default([]),
    accounts: z.array(AccountRef).max(CUSTOMER_LIMITS.accountsPerCustomer).default([]),
    contact: visibleText('The contact', CUSTOMER_LIMITS.contact).default(''),
    notes: z.string().max(CUSTOMER_LIMITS.notes, { error: `Notes are at most ${CUSTOMER_LIMITS.notes} characters` }).default(''),
    /** '' not known; absent: not said (an imported book older than the column keeps what the book holds). */
    paysBy: z.enum(['', ...PAYS_BY], { error: 'Pays by is “Card” or “Bank transfer” (or empty when not known)' }).optional(),
  })
  .refine((draft) => draft.externalIds.length + draft.accounts.length > 0, {
    error: 'Give the customer at least one external customer id or linked account',
    path: ['externalIds'],
  });
export type CustomerDraft = z.input<typeof CustomerDraft>;
export type ParsedCustomerDraft = z.output<typeof CustomerDraft>;

export const Customer = z.object({
  key: CustomerKey,
  name: z.string(),
  externalIds: z.array(z.string()),
  accounts: z.array(z.string()),
  contact: z.string(),
  notes: z.string(),
  /** Absent when not known (and in every customer kept before the field). */
  paysBy: PaysBy.optional(),
  /** ISO instant of the last change. */
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof Customer>;

export const CustomerBook = z.object({
  customers: z.array(Customer),
  /** False when the book cannot be kept on disk (no keychain and no other safe key): said, never hidden. */
  persistent: z.boolean(),
  /** Why it is not kept on disk, in plain words. */
  reason: z.string().optional(),
  /** Set when the stored own data could not be read in this run and its last good state was restored. */
  recovered: OwnDataRecovery.nullable(),
});
export type CustomerBook = z.infer<typeof CustomerBook>;

/** A customer the app suggests from what the person already uses; confirmed, renamed or merged before it is kept. */
export const CustomerProposal = z.object({
  name: z.string(),
  externalIds: z.array(z.string()),
  accounts: z.array(z.string()),
  /** Where it came from, said beside it. */
  from: z.enum(['dr-id', 'linked-account', 'policy-account']),
});
export type CustomerProposal = z.infer<typeof CustomerProposal>;

export const CustomerRemoval = z.object({ key: CustomerKey });

export const CustomerImportInput = z.object({
  /** The CSV text as read from the chosen file. */
  csv: z.string().max(8 * 1024 * 1024, { error: 'The file is larger than 8 MB: it is not a customer book' }),
});

/** What an import did, row by row where it could not. */
export const CustomerImportReport = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Rows left out, with their line in the file and why; nothing else in the book was changed by them. */
  rejected: z.array(z.object({ line: z.number().int(), name: z.string(), reason: z.string() })),
  book: CustomerBook,
});
export type CustomerImportReport = z.infer<typeof CustomerImportReport>;

export const CustomerPageInput = z.object({ key: CustomerKey });

/** What happens in the next `days` days among a customer's capacity policies. */
export const CustomerHorizon = z.object({
  days: z.number().int(),
  launches: z.number().int(),
  ends: z.number().int(),
  /** Ends with auto-renewal on: these renew rather than end. */
  renews: z.number().int(),
});
export type CustomerHorizon = z.infer<typeof CustomerHorizon>;

export const CUSTOMER_HORIZONS = [30, 60, 90] as const;

/** The figures of a customer page, from the local copy of their capacity policies. */
export const CustomerTotals = z.object({
  activeCapacity: z.number().int(),
  /** Of the active capacity policies, those that launch after now: bought, not running yet. */
  launchingLater: z.number().int(),
  /**
   * What the running active policies (launched; the `launchingLater` ones are not) cost a month: each ourPrice
   * spread over its window, counted for a month.
   */
  monthlySpend: z.number(),
  /** The same for the active policies that launch later: what they will add a month once they run. */
  monthlySpendLaunching: z.number(),
  /** Savings delivered from the 1st of this month (UTC) to now, and from 1 January: each policy's savings spread over its window. */
  savingsThisMonth: z.number(),
  savingsYearToDate: z.number(),
  /**
   * The processing fees of the bought policies if the customer pays by card, and if by bank transfer: the service
   * states both fees of a policy, not which way the customer pays (a policy with one fee stated counts it in both).
   */
  processingFeesByCard: z.number(),
  processingFeesByBank: z.number(),
  /** Cancellation fees the service stated to this app. */
  cancellationFees: z.number(),
  /**
   * Canceled policies whose window overlaps this year and that this app did not cancel: the service does not say
   * when they were canceled, so the savings they delivered before it are not in the two savings figures.
   */
  canceledUncounted: z.number().int(),
});
export type CustomerTotals = z.infer<typeof CustomerTotals>;

/**
 * A customer page's capacity policies, newest first: its answer carries the first frame's rows (more than a
 * screen holds) beside the figures, and `customers.policies` the newest `listed` once that frame is painted.
 * Sent all at once, the 200 rows' output check, JSON and decoding were on the wait after the click.
 */
export const CUSTOMER_ROWS = { first: 30, listed: 200 } as const;

/** Some of a customer's capacity policies, newest first; `total` counts them all. */
export const CustomerPolicies = z.object({ rows: z.array(CapacityRow), total: z.number().int() });
export type CustomerPolicies = z.infer<typeof CustomerPolicies>;

export const CustomerPage = z.object({
  customer: Customer,
  asOf: z.string(),
  /** When the copy the figures come from was fetched; null when there is no copy yet. */
  fetchedAt: z.string().nullable(),
  totals: CustomerTotals,
  horizons: z.array(CustomerHorizon),
  /** Launches and ends in the longest horizon, soonest first. */
  milestones: z.array(PolicyMilestone),
  /** The newest `CUSTOMER_ROWS.first` of their capacity policies across all their accounts; `total` counts them all. */
  capacity: CustomerPolicies,
  /** What this app did to any of their policies, newest first. */
  activity: z.array(ActivityEntry),
});
export type CustomerPage = z.infer<typeof CustomerPage>;

/** One customer's line in the overview by customer. */
export const CustomerStanding = z.object({
  key: CustomerKey,
  name: z.string(),
  activePolicies: z.number().int(),
  monthlySpend: z.number(),
  monthlySavings: z.number(),
});
export type CustomerStanding = z.infer<typeof CustomerStanding>;

export const CustomersOverview = z.object({
  fetchedAt: z.string().nullable(),
  bySpend: z.array(CustomerStanding),
  bySavings: z.array(CustomerStanding),
  /** Active policies whose account belongs to no customer. */
  unassignedActive: z.number().int(),
  customers: z.number().int(),
});
export type CustomersOverview = z.infer<typeof CustomersOverview>;

export const DrFindInput = z.object({ text: z.string().max(200) });

/** A DR policy found by id or name in the local copy's lists, with the customer id it is listed under. */
export const DrFound = z.object({
  cidrId: z.string(),
  policyName: z.string().optional(),
  policyStatus: z.string().optional(),
  customerId: z.string(),
});
export type DrFound = z.infer<typeof DrFound>;
