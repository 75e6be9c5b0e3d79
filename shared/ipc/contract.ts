import { z } from 'zod';
import { AutoRenewalRequest, CapacityPolicy, ConfigureRequest, MessageResponse, SearchInput } from '../api/capacity.js';
import { CyberListInput } from '../api/cyber.js';
import { OfferingsRead } from '../api/readers.js';
import { CapacityWindow, SourcedAccounts, SourcedCapacityDetail, SourcedCyberDetail, SourcedCyberPage, SourcedOverview } from './sourced.js';
import { DriftReport } from './diagnostics.js';
import type { Channel, EventName } from './channels.js';
import { CancelResult, CustomerId, PolicyRef, Profile, SessionStatus, SignInInput, TerminateResult } from './models.js';
import { CacheStatus, LocalCapacityQuery, SyncProgress as OfflineSyncProgress, SyncSummary } from './offline.js';
import { NetworkStatus, ProfileIdInput, ProfileInput, RememberCustomerInput, SessionExpiring } from './models.js';
import { SaveCsvInput, SaveCsvResult } from './models.js';
import { AppCommand, AppInfo, Preferences, PreferencesPatch, UpdateState } from './desktop.js';
import { MoneyState } from './money.js';
import { UnreadableFile } from './unreadable-files.js';

const NoInput = z.undefined();

interface ChannelDef {
  readonly input: z.ZodType;
  readonly output: z.ZodType;
  /** Money-moving or state-changing: the UI confirms first; never retried. */
  readonly mutates: boolean;
}

/**
 * The IPC contract: every channel with its input and output schema. Both hosts
 * (Electron IPC and the loopback browser host) dispatch through it, parsing the
 * input before a handler runs and the output before it leaves the main process.
 */
export const CONTRACT = {
  'profiles.list': { input: NoInput, output: z.array(Profile), mutates: false },
  'session.status': { input: NoInput, output: SessionStatus, mutates: false },
  'session.signIn': { input: SignInInput, output: SessionStatus, mutates: true },
  'session.signOut': { input: NoInput, output: SessionStatus, mutates: true },
  // The read channels answer tolerantly (shared/api/readers.ts); the money channels strictly.
  'accounts.list': { input: NoInput, output: SourcedAccounts, mutates: false },
  // The list view's window: from the local replica once synced (search, any sort), else the service's pages.
  'capacity.list': { input: LocalCapacityQuery, output: CapacityWindow, mutates: false },
  'capacity.describe': { input: PolicyRef, output: SourcedCapacityDetail, mutates: false },
  'capacity.search': { input: SearchInput, output: OfferingsRead, mutates: false },
  'capacity.purchase': { input: PolicyRef, output: CapacityPolicy, mutates: true },
  'capacity.configure': { input: ConfigureRequest, output: CapacityPolicy, mutates: true },
  'capacity.setAutoRenewal': { input: AutoRenewalRequest, output: MessageResponse, mutates: true },
  'capacity.cancel': { input: PolicyRef, output: CancelResult, mutates: true },
  'cyber.list': { input: CyberListInput.extend({ customerId: CustomerId }), output: SourcedCyberPage, mutates: false },
  'cyber.view': { input: PolicyRef, output: SourcedCyberDetail, mutates: false },
  'cyber.terminate': { input: PolicyRef, output: TerminateResult, mutates: true },
  'profiles.save': { input: ProfileInput, output: Profile, mutates: true },
  'profiles.remove': { input: ProfileIdInput, output: z.array(Profile), mutates: true },
  'profiles.rememberCustomer': { input: RememberCustomerInput, output: Profile, mutates: true },
  'network.status': { input: NoInput, output: NetworkStatus, mutates: false },
  'offline.status': { input: NoInput, output: CacheStatus, mutates: false },
  'offline.enter': { input: z.object({ profileId: z.string().min(1) }), output: CacheStatus, mutates: false },
  'offline.leave': { input: NoInput, output: z.null(), mutates: false },
  'offline.sync': { input: NoInput, output: SyncSummary, mutates: false },
  'offline.cancelSync': { input: NoInput, output: z.boolean(), mutates: false },
  'offline.wipe': { input: NoInput, output: CacheStatus, mutates: true },
  'overview.summary': { input: NoInput, output: SourcedOverview, mutates: false },
  // Writes a file only where the person chooses it in the save dialog.
  'files.saveCsv': { input: SaveCsvInput, output: SaveCsvResult, mutates: false },
  'app.info': { input: NoInput, output: AppInfo, mutates: false },
  'updates.status': { input: NoInput, output: UpdateState, mutates: false },
  'updates.check': { input: NoInput, output: UpdateState, mutates: false },
  // Quits and restarts into the downloaded version.
  'updates.install': { input: NoInput, output: UpdateState, mutates: true },
  'preferences.get': { input: NoInput, output: Preferences, mutates: false },
  'preferences.set': { input: PreferencesPatch, output: Preferences, mutates: true },
  // Where a policy's money actions stand (issue 13): free, in flight, or locked until a read-back settles an unknown outcome.
  'money.state': { input: PolicyRef, output: MoneyState, mutates: false },
  // Reads the policy back now to settle an unknown outcome; sends nothing that moves money.
  'money.check': { input: PolicyRef, output: MoneyState, mutates: false },
  // How the service's answers differed from this version's expectations: field paths only.
  'diagnostics.contractDrift': { input: NoInput, output: DriftReport, mutates: false },
  // Settings files that could not be read and were kept aside (issue 13).
  'app.unreadableFiles': { input: NoInput, output: z.array(UnreadableFile), mutates: false },
} as const satisfies { readonly [C in Channel]: ChannelDef };

export const EVENT_PAYLOADS = {
  'session.changed': SessionStatus,
  'session.expiring': SessionExpiring,
  'offline.syncProgress': OfflineSyncProgress,
  'updates.changed': UpdateState,
  'app.command': AppCommand,
  'money.changed': MoneyState,
} as const satisfies { readonly [E in EventName]: z.ZodType };

export type Input<C extends Channel> = z.input<(typeof CONTRACT)[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<(typeof CONTRACT)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof CONTRACT)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENT_PAYLOADS)[E]>;
