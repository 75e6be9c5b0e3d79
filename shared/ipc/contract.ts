import { z } from 'zod';
import { LinkedAccountList } from '../api/accounts.js';
import {
  AutoRenewalRequest,
  AvailabilityOfferingList,
  CapacityListInput,
  CapacityPage,
  CapacityPolicy,
  CapacityView,
  ConfigureRequest,
  MessageResponse,
  SearchInput,
} from '../api/capacity.js';
import { CyberListInput, CyberPage, CyberView } from '../api/cyber.js';
import type { Channel, EventName } from './channels.js';
import { CancelResult, CustomerId, PolicyRef, Profile, SessionStatus, SignInInput, TerminateResult } from './models.js';

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
  'accounts.list': { input: NoInput, output: LinkedAccountList, mutates: false },
  'capacity.list': { input: CapacityListInput, output: CapacityPage, mutates: false },
  'capacity.describe': { input: PolicyRef, output: CapacityView, mutates: false },
  'capacity.search': { input: SearchInput, output: AvailabilityOfferingList, mutates: false },
  'capacity.purchase': { input: PolicyRef, output: CapacityPolicy, mutates: true },
  'capacity.configure': { input: ConfigureRequest, output: CapacityPolicy, mutates: true },
  'capacity.setAutoRenewal': { input: AutoRenewalRequest, output: MessageResponse, mutates: true },
  'capacity.cancel': { input: PolicyRef, output: CancelResult, mutates: true },
  'cyber.list': { input: CyberListInput.extend({ customerId: CustomerId }), output: CyberPage, mutates: false },
  'cyber.view': { input: PolicyRef, output: CyberView, mutates: false },
  'cyber.terminate': { input: PolicyRef, output: TerminateResult, mutates: true },
} as const satisfies { readonly [C in Channel]: ChannelDef };

export const EVENT_PAYLOADS = {
  'session.changed': SessionStatus,
} as const satisfies { readonly [E in EventName]: z.ZodType };

export type Input<C extends Channel> = z.input<(typeof CONTRACT)[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<(typeof CONTRACT)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof CONTRACT)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENT_PAYLOADS)[E]>;
