import type { Channel, EventName, GroupOf, MethodOf } from './channels.js';
import type { EventPayload, Input, Output } from './contract.js';
import type { Result } from './result.js';

/** One renderer-facing method per channel: `api.session.signIn(input)`. */
type MethodFor<C extends Channel> =
  Input<C> extends undefined ? () => Promise<Result<Output<C>>> : (input: Input<C>) => Promise<Result<Output<C>>>;

export type DeskApi = {
  readonly [G in GroupOf<Channel>]: {
    readonly [C in Channel as GroupOf<C> extends G ? MethodOf<C> : never]: MethodFor<C>;
  };
} & {
  /** Subscribes to a push event; returns the unsubscribe function. */
  readonly on: <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => () => void;
};
