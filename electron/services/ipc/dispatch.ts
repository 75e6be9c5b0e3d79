import { CHANNELS, type Channel } from '../../../shared/ipc/channels.js';
import { AppFailure, type AppError, type Result } from '../../../shared/ipc/result.js';
import { CONTRACT, inputTooLargeMessage, maxInputBytes, type Handlers } from '../../../shared/ipc/contract.js';
import { exceedsJsonBytes } from './input-size.js';
import { checkedOutput } from './kept-answers.js';

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && (CHANNELS as readonly string[]).includes(name);
}

export type InternalErrorReporter = (channel: string, error: unknown) => void;

/**
 * The one path every IPC call takes, whichever host carried it: refuse an input
 * over the channel's size limit, parse the input with the channel's schema, run the handler, parse the output (which also
 * strips anything the contract does not name; a kept answer checked before is not checked again: kept-answers.ts),
 * and turn every failure into a value.
 */
export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  rawInput: unknown,
  reportInternal: InternalErrorReporter = () => undefined,
): Promise<Result<unknown>> {
  if (!isChannel(channel)) {
    return { ok: false, error: { kind: 'forbidden', message: 'Unknown request.' } };
  }
  const limit = maxInputBytes(channel);
  if (exceedsJsonBytes(rawInput, limit)) {
    return { ok: false, error: { kind: 'invalid-input', message: inputTooLargeMessage(limit) } };
  }
  const def = CONTRACT[channel];
  const input = def.input.safeParse(rawInput);
  if (!input.success) {
    const issue = input.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
    const error: AppError = {
      kind: 'invalid-input',
      message: issue?.message ?? 'The request was not valid.',
      field,
    };
    return { ok: false, error };
  }
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
    const value = await handler(input.data);
    const output = checkedOutput(def.output, value);
    if (!output.success) {
      reportInternal(channel, output.error);
      return { ok: false, error: { kind: 'internal', message: 'Something went wrong inside Capacity Desk.' } };
    }
    return { ok: true, value: output.data };
  } catch (error) {
    if (error instanceof AppFailure) return { ok: false, error: error.error };
    reportInternal(channel, error);
    return { ok: false, error: { kind: 'internal', message: 'Something went wrong inside Capacity Desk.' } };
  }
}
