import { z } from 'zod';
import { AutoRenewalRequest, CapacityPolicy, ConfigureRequest, MessageResponse, SearchInput } from '../api/capacity.js';
import { CyberListInput } from '../api/cyber.js';
import { OfferingsRead } from '../api/readers.js';
import { CapacityWindow, SourcedAccounts, SourcedCapacityDetail, SourcedCyberDetail, SourcedCyberPage, SourcedOverview, ServiceCheck } from './sourced.js';
import { DriftReport } from './diagnostics.js';
import type { Channel, EventName } from './channels.js';
import { CancelResult, TerminateResult } from './money-results.js';
import { CustomerId, PolicyRef } from './policy-refs.js';
import { DemoAccount, DemoSignInInput, SessionStatus, SignInInput } from './session.js';
import { Profile } from './profiles.js';
import { CacheStatus, CopyChanged, LocalCapacityQuery, SyncProgress as OfflineSyncProgress, SyncSummary } from './offline.js';
import { NetworkStatus } from './network.js';
import { ProfileIdInput, ProfileInput, RememberCustomerInput } from './profiles.js';
import { SessionExpiring } from './session.js';
import { SaveCsvInput, SaveCsvResult } from './export.js';
import { SaveSheetInput, SaveSheetResult } from './export-sheet.js';
import { AppCommand, AppInfo, Preferences, PreferencesPatch, UpdateState } from './desktop.js';
import { MoneyState } from './money.js';
import { UnreadableFile } from './unreadable-files.js';
import { UiState, UiStateEntry } from './ui-state.js';
import { ActivityList, ActivityQuery, StatedFees } from './activity.js';
import { QuoteRequest, QuoteResult } from '../quote/quote.js';
import {
  Customer,
  CustomerBook,
  CustomerDraft,
  CustomerImportInput,
  CustomerImportReport,
  CustomerPage,
  CustomerPageInput,
  CustomerPolicies,
  CustomerProposal,
  CustomerRemoval,
  CustomersOverview,
  DrFindInput,
  DrFound,
} from './customers.js';
import { CalendarExportInput, WorklistEntry, WorklistEntryInput, WorklistQuery, WorklistWindow } from './worklist.js';
import { ReminderDigest } from './reminders.js';

const NoInput = z.undefined();

/**
 * What a call does. It gives the channel's facts their defaults (see
 * `ChannelFacts`); an entry overrides a fact where its effect alone says the wrong thing.
 * - `service-read`: reads the live service for a view. Not audited; failing to
 *   reach the service switches the app to its offline copy.
 * - `local`: answers from what the app holds or does its own housekeeping
 *   (settings, the offline copy, update and lock state, a save dialog). Not audited.
 * - `change`: changes the session, settings, the offline copy or a policy's
 *   settings. Audited (logged with its subject).
 * - `money`: moves money. The UI confirms first, it is sent once and never
 *   retried, and it is audited.
 */
export type ChannelEffect = 'service-read' | 'local' | 'change' | 'money';

/** The inputs of a form's worth of text: the size a channel accepts unless its entry says more. */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024;

/** How the app treats calls of one channel, each fact answered on its own. */
export interface ChannelFacts {
  /** Logged to the audit trail with its subject. */
  readonly audited: boolean;
  /** A failure to reach the service switches the app to its offline copy. */
  readonly offlineOnFailure: boolean;
  /** The largest input accepted, as bytes of JSON; both hosts refuse larger ones before parsing. */
  readonly maxInputBytes: number;
}

interface ChannelDef extends Partial<ChannelFacts> {
  readonly input: z.ZodType;
  readonly output: z.ZodType;
  readonly effect: ChannelEffect;
}

/**
 * The IPC contract: every channel with its input and output schema. Both hosts
 * (Electron IPC and the loopback browser host) dispatch through it, parsing the
 * input before a handler runs and the output before it leaves the main process.
 */
export const CONTRACT = {
  'profiles.list': { input: NoInput, output: z.array(Profile), effect: 'local' },
  'session.status': { input: NoInput, output: SessionStatus, effect: 'local' },
  'session.signIn': { input: SignInInput, output: SessionStatus, effect: 'change' },
  'session.signOut': { input: NoInput, output: SessionStatus, effect: 'change' },
  // The built-in sandbox's demo accounts, offered on its sign-in (names only), and signing in as one of them.
  'session.demoAccounts': { input: NoInput, output: z.array(DemoAccount), effect: 'local' },
  'session.signInDemo': { input: DemoSignInInput, output: SessionStatus, effect: 'change' },
  // The read channels answer tolerantly (shared/api/readers.ts); the money channels strictly.
  'accounts.list': { input: NoInput, output: SourcedAccounts, effect: 'service-read' },
  // The list view's window: from the local replica once synced (search, any sort), else the service's pages.
  'capacity.list': { input: LocalCapacityQuery, output: CapacityWindow, effect: 'service-read' },
  'capacity.describe': { input: PolicyRef, output: SourcedCapacityDetail, effect: 'service-read' },
  'capacity.search': { input: SearchInput, output: OfferingsRead, effect: 'service-read' },
  'capacity.purchase': { input: PolicyRef, output: CapacityPolicy, effect: 'money' },
  'capacity.configure': { input: ConfigureRequest, output: CapacityPolicy, effect: 'change' },
  'capacity.setAutoRenewal': { input: AutoRenewalRequest, output: MessageResponse, effect: 'change' },
  'capacity.cancel': { input: PolicyRef, output: CancelResult, effect: 'money' },
  'cyber.list': { input: CyberListInput.extend({ customerId: CustomerId }), output: SourcedCyberPage, effect: 'service-read' },
  'cyber.view': { input: PolicyRef, output: SourcedCyberDetail, effect: 'service-read' },
  'cyber.terminate': { input: PolicyRef, output: TerminateResult, effect: 'money' },
  'profiles.save': { input: ProfileInput, output: Profile, effect: 'change' },
  'profiles.remove': { input: ProfileIdInput, output: z.array(Profile), effect: 'change' },
  'profiles.rememberCustomer': { input: RememberCustomerInput, output: Profile, effect: 'change' },
  'network.status': { input: NoInput, output: NetworkStatus, effect: 'local' },
  'network.checkService': { input: NoInput, output: ServiceCheck, effect: 'service-read' },
  'offline.status': { input: NoInput, output: CacheStatus, effect: 'local' },
  'offline.enter': { input: z.object({ profileId: z.string().min(1) }), output: CacheStatus, effect: 'local' },
  'offline.leave': { input: NoInput, output: z.null(), effect: 'local' },
  // Rewrites the offline copy from the service, so it is audited; its progress and errors are shown where the
  // sync was asked for, and a failed sync leaves the app where it is.
  'offline.sync': { input: NoInput, output: SyncSummary, effect: 'local', audited: true },
  'offline.cancelSync': { input: NoInput, output: z.boolean(), effect: 'local' },
  'offline.wipe': { input: NoInput, output: CacheStatus, effect: 'change' },
  // Deletes the signed-in account manager's own data (customer book, activity, worklist states, notes) and its key,
  // for this environment and user, only on their confirmed request at sign-out; the copy is left as it is.
  'owndata.wipe': { input: NoInput, output: z.null(), effect: 'change' },
  'overview.summary': { input: NoInput, output: SourcedOverview, effect: 'service-read' },
  // Writes a file only where the person chooses it in the save dialog. The largest legitimate input is an
  // export of the longest list (20,000 rows; about 8 MB as JSON, see test/integration/browser-host-limits.test.ts).
  'files.saveCsv': { input: SaveCsvInput, output: SaveCsvResult, effect: 'local', maxInputBytes: 16 * 1024 * 1024 },
  'files.saveSheet': { input: SaveSheetInput, output: SaveSheetResult, effect: 'local', maxInputBytes: 16 * 1024 * 1024 },
  'app.info': { input: NoInput, output: AppInfo, effect: 'local' },
  'updates.status': { input: NoInput, output: UpdateState, effect: 'local' },
  // Asks the update server, not the service: an unreachable update server says nothing about the service.
  'updates.check': { input: NoInput, output: UpdateState, effect: 'local', offlineOnFailure: false },
  // Quits and restarts into the downloaded version.
  'updates.install': { input: NoInput, output: UpdateState, effect: 'change' },
  'preferences.get': { input: NoInput, output: Preferences, effect: 'local' },
  'preferences.set': { input: PreferencesPatch, output: Preferences, effect: 'change' },
  // Where a policy's money actions stand: free, in flight, or locked until a read-back settles an unknown outcome.
  'money.state': { input: PolicyRef, output: MoneyState, effect: 'local' },
  // Reads the policy back now to settle an unknown outcome; sends nothing that moves money.
  'money.check': { input: PolicyRef, output: MoneyState, effect: 'service-read' },
  // How the service's answers differed from this version's expectations: field paths only.
  'diagnostics.contractDrift': { input: NoInput, output: DriftReport, effect: 'local' },
  // Settings files that could not be read and were kept aside.
  'app.unreadableFiles': { input: NoInput, output: z.array(UnreadableFile), effect: 'local' },
  // The views' small state (list filter, sort, place), kept by the main process so it survives either host's restart.
  'views.state': { input: NoInput, output: UiState, effect: 'local' },
  'views.setState': { input: UiStateEntry, output: z.null(), effect: 'local' },
  // What this app did to one policy (purchase, configuration, renewal, cancellation, termination), from the local replica.
  'activity.list': { input: ActivityQuery, output: ActivityList, effect: 'local' },
  // Every capacity policy's latest cancellation fee as the service stated it (own data), for the Fee column and the overview.
  'activity.statedFees': { input: NoInput, output: StatedFees, effect: 'local' },
  // A quote of ready policies for a customer: the PDF and the e-mail text, recorded in each policy's activity.
  'quote.create': { input: QuoteRequest, output: QuoteResult, effect: 'local' },
  // The customer book: the account manager's own data (never discarded with the copy), and what the copy says of each customer.
  'customers.list': { input: NoInput, output: CustomerBook, effect: 'local' },
  'customers.save': { input: CustomerDraft, output: Customer, effect: 'change' },
  'customers.remove': { input: CustomerRemoval, output: CustomerBook, effect: 'change' },
  'customers.import': { input: CustomerImportInput, output: CustomerImportReport, effect: 'change', maxInputBytes: 16 * 1024 * 1024 },
  // Customers suggested from the DR ids already used and the linked accounts, minus the book's.
  'customers.propose': { input: NoInput, output: z.array(CustomerProposal), effect: 'local' },
  // One customer's page, from the local copy at once (DR lists are read live by the page through cyber.list).
  'customers.page': { input: CustomerPageInput, output: CustomerPage, effect: 'local' },
  // The newest of their capacity policies the page lists (CUSTOMER_ROWS.listed), asked once its first frame is painted.
  'customers.policies': { input: CustomerPageInput, output: CustomerPolicies, effect: 'local' },
  'customers.overview': { input: NoInput, output: CustomersOverview, effect: 'local' },
  // DR policies by id or name across the lists the local copy holds (the book's ids and those used), for the palette.
  'cyber.find': { input: DrFindInput, output: z.array(DrFound), effect: 'local' },
  // The renewal worklist across every customer, from the local copy, with the account manager's own entry per policy.
  'worklist.query': { input: WorklistQuery, output: WorklistWindow, effect: 'local' },
  // The account manager's own entry for one policy (state, note, snoozed until): their data, never replaced by a sync.
  'worklist.setEntry': { input: WorklistEntryInput, output: WorklistEntry, effect: 'change' },
  // The renewal reminders due now as one digest, recorded as given (never the same twice): the browser host's page shows it.
  'reminders.take': { input: NoInput, output: ReminderDigest.nullable(), effect: 'local' },
  // The launches and ends within the horizon as a calendar (.ics), for one customer or all; written where the person chooses.
  'worklist.exportCalendar': { input: CalendarExportInput, output: SaveCsvResult, effect: 'local' },
} as const satisfies { readonly [C in Channel]: ChannelDef };

export const EVENT_PAYLOADS = {
  'session.changed': SessionStatus,
  'session.expiring': SessionExpiring,
  'offline.syncProgress': OfflineSyncProgress,
  'offline.copyChanged': CopyChanged,
  'updates.changed': UpdateState,
  'app.command': AppCommand,
  'money.changed': MoneyState,
  // The service went away or came back, noticed in the main process without a view asking (ServiceWatch).
  'network.serviceChanged': ServiceCheck,
} as const satisfies { readonly [E in EventName]: z.ZodType };

export type Input<C extends Channel> = z.input<(typeof CONTRACT)[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<(typeof CONTRACT)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof CONTRACT)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENT_PAYLOADS)[E]>;

/**
 * The main process's side of the contract: one async function per channel,
 * free of Electron types so both hosts and the tests can call it.
 */
export type Handlers = {
  readonly [C in Channel]: (input: ParsedInput<C>) => Promise<Output<C>>;
};

const EFFECT_DEFAULTS: { readonly [E in ChannelEffect]: Omit<ChannelFacts, 'maxInputBytes'> } = {
  'service-read': { audited: false, offlineOnFailure: true },
  local: { audited: false, offlineOnFailure: false },
  change: { audited: true, offlineOnFailure: false },
  money: { audited: true, offlineOnFailure: false },
};

/** A channel's facts: its entry's overrides over its effect's defaults; null for a name the contract does not have. */
export function channelFacts(channel: string): ChannelFacts | null {
  if (!Object.hasOwn(CONTRACT, channel)) return null;
  const def: ChannelDef = CONTRACT[channel as Channel];
  const defaults = EFFECT_DEFAULTS[def.effect];
  return {
    audited: def.audited ?? defaults.audited,
    offlineOnFailure: def.offlineOnFailure ?? defaults.offlineOnFailure,
    maxInputBytes: def.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES,
  };
}

/** Failing to reach the service on this channel switches the app to its offline copy. */
export function switchesToOfflineOnFailure(channel: string): boolean {
  return channelFacts(channel)?.offlineOnFailure ?? false;
}

/** Logged to the audit trail with its subject. */
export function isAudited(channel: string): boolean {
  return channelFacts(channel)?.audited ?? false;
}

/** The largest input the channel accepts, as bytes of JSON (the default for a name the contract does not have). */
export function maxInputBytes(channel: string): number {
  return channelFacts(channel)?.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
}

/** The refusal both hosts give an input over its channel's limit. */
export function inputTooLargeMessage(limit: number): string {
  return `This request is larger than Capacity Desk accepts (at most ${Math.round(limit / 1024 / 1024) || 1} MB).`;
}
