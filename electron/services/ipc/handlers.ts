import type { Channel } from '../../../shared/ipc/channels.js';
import type { Output, ParsedInput } from '../../../shared/ipc/contract.js';

/**
 * The main process's side of the contract: one async function per channel,
 * free of Electron types so both hosts and the tests can call it.
 */
export type Handlers = {
  readonly [C in Channel]: (input: ParsedInput<C>) => Promise<Output<C>>;
};
