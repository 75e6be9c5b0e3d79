import { z } from 'zod';
import { AutoRenewalRequest, CapacityPolicy, ConfigureRequest, MessageResponse, SearchInput } from '../api/capacity.js';
import { CyberListInput } from '../api/cyber.js';
import { OfferingsRead } from '../api/readers.js';
import { CapacityWindow, SourcedAccounts, SourcedCapacityDetail, SourcedCyberDetail, SourcedCyberPage, SourcedOverview, ServiceCheck } from './sourced.js';
import { DriftReport } from './diagnostics.js';
import type { Channel, EventName } from './channels.js';
import { CancelResult, CustomerId, DemoAccount, DemoSignInInput, PolicyRef, Profile, SessionStatus, SignInInput, TerminateResult } from './models.js';
import { CacheStatus, LocalCapacityQuery, SyncProgress as OfflineSyncProgress, SyncSummary } from './offline.js';
import { NetworkStatus, ProfileIdInput, ProfileInput, RememberCustomerInput, SessionExpiring } from './models.js';
import { SaveCsvInput, SaveCsvResult } from './models.js';
import { SaveSheetInput, SaveSheetResult } from './export-sheet.js';
import { AppCommand, AppInfo, Preferences, PreferencesPatch, UpdateState } from './desktop.js';
import { MoneyState } from './money.js';
import { UnreadableFile } from './unreadable-files.js';
import { UiState, UiStateEntry } from './ui-state.js';
import { ActivityList, ActivityQuery } from './activity.js';

const NoInput = z.undefined();

/**
 * What a call does, which decides how the app treats it:
 * - `service-read`: reads the live service for a view. Only these switch the
 *   app to its offline copy when the service cannot be reached.
 * - `local`: answers from what the app holds or does its own housekeeping
 *   (settings, the offline copy, update and lock state, a save dialog). Not audited.
 * - `change`: changes the session, settings, the offline copy or a policy's
 *   settings. Audited (logged with its subject).
 * - `money`: moves money. The UI confirms first, it is sent once and never
 *   retried, and it is audited.
 */
export type ChannelEffect = 'service-read' | 'local' | 'change' | 'money';

interface ChannelDef {
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
  // Fills the offline copy from the service; its progress and errors are shown where the sync was asked for.
  'offline.sync': { input: NoInput, output: SyncSummary, effect: 'local' },
  'offline.cancelSync': { input: NoInput, output: z.boolean(), effect: 'local' },
  'offline.wipe': { input: NoInput, output: CacheStatus, effect: 'change' },
  'overview.summary': { input: NoInput, output: SourcedOverview, effect: 'service-read' },
  // Writes a file only where the person chooses it in the save dialog.
  'files.saveCsv': { input: SaveCsvInput, output: SaveCsvResult, effect: 'local' },
  'files.saveSheet': { input: SaveSheetInput, output: SaveSheetResult, effect: 'local' },
  'app.info': { input: NoInput, output: AppInfo, effect: 'local' },
  'updates.status': { input: NoInput, output: UpdateState, effect: 'local' },
  'updates.check': { input: NoInput, output: UpdateState, effect: 'local' },
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

/**
 * The main process's side of the contract: one async function per channel,
 * free of Electron types so both hosts and the tests can call it.
 */
export type Handlers = {
  readonly [C in Channel]: (input: ParsedInput<C>) => Promise<Output<C>>;
};

function effectOf(channel: string): ChannelEffect | null {
  return Object.hasOwn(CONTRACT, channel) ? CONTRACT[channel as Channel].effect : null;
}

/** A read of the live service for a view: failing to reach the service switches to the offline copy. */
export function isServiceRead(channel: string): boolean {
  return effectOf(channel) === 'service-read';
}

/** A change or a money action: logged to the audit trail with its subject. */
export function isAudited(channel: string): boolean {
  const effect = effectOf(channel);
  return effect === 'change' || effect === 'money';
}
