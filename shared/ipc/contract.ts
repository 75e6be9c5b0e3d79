import { z } from 'zod';
import { LinkedAccountList } from '../api/accounts.js';
import type { Channel, EventName } from './channels.js';
import { Profile, SessionStatus, SignInInput } from './models.js';

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
} as const satisfies { readonly [C in Channel]: ChannelDef };

export const EVENT_PAYLOADS = {
  'session.changed': SessionStatus,
} as const satisfies { readonly [E in EventName]: z.ZodType };

export type Input<C extends Channel> = z.input<(typeof CONTRACT)[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<(typeof CONTRACT)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof CONTRACT)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENT_PAYLOADS)[E]>;
