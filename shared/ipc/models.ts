import { z } from 'zod';
import { SkippedItem } from '../api/tolerant.js';
import { AgreementTerms } from '../money/agreement-terms.js';

/** Shapes that exist only between the main process and the renderer. */

export const Profile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.string(),
  builtIn: z.boolean(),
  lastUsername: z.string().optional(),
  /** Customer ids last used with this profile, most recent first (at most MAX_REMEMBERED_CUSTOMERS). */
  lastCustomerIds: z.array(z.string()),
  /** Why this environment cannot be signed in to (its URL breaks the base-URL rule, e.g. a settings file written by hand). */
  unusable: z.string().optional(),
  /** The agreement's currency and cancellation-fee schedule (the Sandbox's are its own, fixed). */
  terms: AgreementTerms,
});
export type Profile = z.infer<typeof Profile>;

export const KeychainStatus = z.object({
  /**
   * Which store holds the session: the system keychain (keytar), else the OS's
   * encryption (Electron's safeStorage, in a 0600 file in the data folder),
   * else `memory`: not kept past this run.
   */
  kind: z.enum(['keychain', 'safe-storage', 'memory']),
  /** Why the OS keychain is not used, in plain words. */
  reason: z.string().optional(),
});
export type KeychainStatus = z.infer<typeof KeychainStatus>;

export const SessionStatus = z.object({
  signedIn: z.boolean(),
  profileId: z.string(),
  username: z.string().optional(),
  /** ISO 8601 instant the access token stops working. */
  expiresAt: z.string().optional(),
  /** Why the last session ended, when it did not end by signing out. */
  endedBecause: z.enum(['expired', 'rejected']).optional(),
  keychain: KeychainStatus,
});
export type SessionStatus = z.infer<typeof SessionStatus>;

export const SignInInput = z.object({
  profileId: z.string().min(1, { error: 'Choose a profile' }),
  username: z.string().trim().min(1, { error: 'Enter your username or e-mail' }).max(320),
  password: z.string().min(1, { error: 'Enter your password' }).max(1024),
});
export type SignInInput = z.infer<typeof SignInInput>;

/** A published demo account of the built-in sandbox, as the sign-in screen offers it: its password never leaves the main process. */
export const DemoAccount = z.object({ username: z.string(), displayName: z.string() });
export type DemoAccount = z.infer<typeof DemoAccount>;
export const DemoSignInInput = z.object({ username: z.string().trim().min(1).max(200) });

/** Names one policy (capacity or cyber) for the single-policy channels. */
export const PolicyRef = z.object({
  cidrId: z
    .string()
    .trim()
    .min(1, { error: 'Enter a policy id' })
    .max(64, { error: 'A policy id is at most 64 characters' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'A policy id has only letters, digits, _ and -' }),
});
export type PolicyRef = z.infer<typeof PolicyRef>;

export const CustomerId = z
  .string()
  .trim()
  .min(1, { error: 'Enter a customer id' })
  .max(64, { error: 'A customer id is at most 64 characters' })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'A customer id has only letters, digits, _, . and -' });

export const CancelResult = z.object({
  message: z.string(),
  /** The early-cancellation fee read from the message; null when the message states none. */
  fee: z.number().nullable(),
});
export type CancelResult = z.infer<typeof CancelResult>;

export const TerminateResult = z.object({
  /** created: 201, a new termination event; already-triggered: 200, one existed. */
  outcome: z.enum(['created', 'already-triggered']),
  eventId: z.number().int().nullable(),
  message: z.string(),
});
export type TerminateResult = z.infer<typeof TerminateResult>;

/** How many customer ids each profile remembers. */
export const MAX_REMEMBERED_CUSTOMERS = 8;

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** True for a URL that never leaves this computer, where plain http is acceptable. */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.test(url.hostname);
}

/** Link-local addresses: cloud metadata services (169.254.169.254) live there, never this API. */
const LINK_LOCAL_HOSTS = /^(169\.254(?:\.\d{1,3}){2}|\[fe[89ab][0-9a-f]:[0-9a-f:.]*\])$/i;

/**
 * The one rule for a profile's base URL, wherever the URL comes from (the
 * environment editor, a settings file written by hand or copied from a
 * colleague): http(s) only, https required unless the host is this computer (a
 * password or token sent over plain http to another host could be read on the
 * way), no link-local host, no credentials, query or fragment. Returns why the
 * URL cannot be used, or null.
 */
export function baseUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'Enter a full URL, e.g. https://api.example.com';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https://';
  if (url.protocol === 'http:' && !isLoopbackUrl(url)) return 'Use https:// for a service on another computer (plain http is only for localhost)';
  if (LINK_LOCAL_HOSTS.test(url.hostname)) return 'A link-local address (such as a cloud metadata service) is not a Capacity Desk service';
  if (url.username || url.password) return 'Do not put a username or password in the URL';
  if (url.search || url.hash) return 'The base URL takes no ?query or #fragment';
  return null;
}

/** A profile's base URL as the environment editor takes it: the rule of `baseUrlProblem`. */
export const ProfileBaseUrl = z
  .string()
  .trim()
  .min(1, { error: 'Enter the base URL of the service' })
  .superRefine((text, ctx) => {
    const problem = baseUrlProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => text.replace(/\/+$/, ''));

/** A profile as the profile manager saves it: no id creates one. */
export const ProfileInput = z.object({
  id: z.string().min(1).max(64).optional(),
  name: z.string().trim().min(1, { error: 'Enter a name' }).max(60, { error: 'A name is at most 60 characters' }),
  baseUrl: ProfileBaseUrl,
  /** Absent: the terms stay as they are (a new environment's are unknown). */
  terms: AgreementTerms.optional(),
});
export type ProfileInput = z.input<typeof ProfileInput>;

export const ProfileIdInput = z.object({ profileId: z.string().min(1) });
export type ProfileIdInput = z.infer<typeof ProfileIdInput>;

/** Remembers a customer id for a profile (default: the profile of the current session). */
export const RememberCustomerInput = z.object({
  customerId: CustomerId,
  profileId: z.string().min(1).optional(),
});
export type RememberCustomerInput = z.input<typeof RememberCustomerInput>;

/** Pushed about five minutes before the access token stops working. */
export const SessionExpiring = z.object({
  profileId: z.string(),
  username: z.string(),
  expiresAt: z.string(),
  minutesLeft: z.number().int().min(0),
});
export type SessionExpiring = z.infer<typeof SessionExpiring>;

/** How requests to one environment leave this computer, as decided for its base URL. */
export const ProxyInUse = z.object({
  baseUrl: z.string(),
  /** system: the OS proxy settings (Electron); environment: HTTPS_PROXY / HTTP_PROXY (browser host, or set explicitly); none: direct. */
  source: z.enum(['system', 'environment', 'none']),
  /** The proxy (credentials removed), or null for a direct connection. */
  proxy: z.string().nullable(),
  /** False when the proxy settings leave no route this app can use (requests fail with `note`). */
  usable: z.boolean(),
  /** What was skipped or why nothing works, in plain words. */
  note: z.string().optional(),
  /**
   * Which network stack carries the requests: undici (Node's, the default), or
   * Chromium's through Electron's `net` (a proxy that wants NTLM/Negotiate/Kerberos
   * sign-in, or a SOCKS proxy), with why.
   */
  route: z.discriminatedUnion('stack', [z.object({ stack: z.literal('undici') }), z.object({ stack: z.literal('electron-net'), reason: z.string() })]),
});
export type ProxyInUse = z.infer<typeof ProxyInUse>;

/** How the main process reaches the network, for the user's (and support's) eyes. */
export const NetworkStatus = z.object({
  /** The proxy in use (credentials removed), or null for direct connections. */
  proxy: z.string().nullable(),
  noProxy: z.string().nullable(),
  /** NODE_EXTRA_CA_CERTS names a file of extra trusted certificates. */
  extraCaCertsFile: z.string().nullable(),
  /** Whether the OS trust store is trusted too (needs Node 22.15+ or 23.10+; see README, "Corporate networks"). */
  systemCa: z.enum(['on', 'off', 'unsupported']),
  nodeVersion: z.string(),
  /** The proxy each environment's requests use, in the order of the environments. */
  proxies: z.array(ProxyInUse),
});
export type NetworkStatus = z.infer<typeof NetworkStatus>;

/* ---- Overview and file export ---- */

/** The overview looks this many days ahead for launches, ends and renewals. */
export const OVERVIEW_WINDOW_DAYS = 30;
/**
 * "Monthly" savings: each ACTIVE policy's savings spread evenly over its window
 * (launch to end), counted for this many days. Written once so the overview's
 * figure and the words that explain it cannot disagree.
 */
export const SAVINGS_MONTH_DAYS = 30;

const Count = z.number().int().min(0);

export const StatusCount = z.object({ status: z.string(), count: Count });
export type StatusCount = z.infer<typeof StatusCount>;

/** Policies meeting one rule, split by status so each part can open the filtered list. */
export const StatusBreakdown = z.object({ total: Count, byStatus: z.array(StatusCount) });
export type StatusBreakdown = z.infer<typeof StatusBreakdown>;

/** A policy's launch or end inside the overview's window. */
export const PolicyMilestone = z.object({
  cidrId: z.string(),
  /** Absent when the service's answer did not state it. */
  policyName: z.string().optional(),
  policyStatus: z.string(),
  kind: z.enum(['launch', 'end']),
  at: z.iso.datetime({ offset: true }),
});
export type PolicyMilestone = z.infer<typeof PolicyMilestone>;

export const FamilySavings = z.object({
  /** The instance family (the type's part before the dot, e.g. m5), or "other" for the rest. */
  family: z.string(),
  monthly: z.number(),
  policies: Count,
});
export type FamilySavings = z.infer<typeof FamilySavings>;

/** One day of the launch/end timeline; day 0 starts at asOf. */
export const TimelineDay = z.object({ day: Count, launches: Count, ends: Count });
export type TimelineDay = z.infer<typeof TimelineDay>;

/** overview.summary: every capacity policy of the user, aggregated in the main process. */
export const OverviewSummary = z.object({
  /** The instant the figures were computed for; "the next N days" start here. */
  asOf: z.iso.datetime({ offset: true }),
  windowDays: z.number().int().min(1),
  totalPolicies: Count,
  /** Every known status in contract order (zero counts included), then any unknown one. */
  byStatus: z.array(StatusCount),
  /** ACTIVE and READY_FOR_PURCHASE policies launching within the window. */
  launching: StatusBreakdown,
  /** ACTIVE and READY_FOR_PURCHASE policies ending within the window. */
  ending: StatusBreakdown,
  /** ACTIVE policies with auto-renewal off that end within the window, soonest first (a few). */
  endingWithoutRenewal: z.object({ total: Count, soonest: z.array(PolicyMilestone) }),
  monthlySavings: z.object({
    total: z.number(),
    activePolicies: Count,
    monthDays: z.number().int().min(1),
    byFamily: z.array(FamilySavings),
  }),
  timeline: z.array(TimelineDay),
  /** The next launches and ends, soonest first (a few, for a readable list). */
  upcoming: z.array(PolicyMilestone),
  /** Policies of the answer that could not be counted (no id): how many, and why for the first few. */
  skippedCount: Count,
  skipped: z.array(SkippedItem),
});
export type OverviewSummary = z.infer<typeof OverviewSummary>;

/** A cell of an exported list: the CSV writer turns it into text. */
export const ExportCell = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

/** files.saveCsv: a list as the user sees it, to be written as CSV by the main process. */
export const SaveCsvInput = z.object({
  /** Offered as the file name; unsafe characters are replaced and .csv is added. */
  suggestedName: z.string().trim().min(1).max(120),
  header: z.array(z.string().max(200)).min(1).max(50),
  rows: z.array(z.array(ExportCell).max(50)).max(20_000),
});
export type SaveCsvInput = z.input<typeof SaveCsvInput>;

/**
 * saved: written where the person chose (Electron's save dialog);
 * canceled: they closed the dialog; download: this host has no save dialog, so
 * the renderer offers the content as a browser download.
 */
export const SaveCsvResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('saved'), fileName: z.string(), path: z.string(), rows: Count }),
  z.object({ outcome: z.literal('canceled') }),
  z.object({ outcome: z.literal('download'), fileName: z.string(), content: z.string(), rows: Count }),
]);
export type SaveCsvResult = z.infer<typeof SaveCsvResult>;
