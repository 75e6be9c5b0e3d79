import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNELS, EVENTS, ipcChannelName, ipcEventName } from '../../shared/ipc/channels.js';
import type { Result } from '../../shared/ipc/result.js';
import type { AppEvents } from '../services/events.js';
import { dispatch, type InternalErrorReporter } from '../services/ipc/dispatch.js';
import type { Handlers } from '../../shared/ipc/contract.js';
import { RefusalLog } from '../services/logging/refusal-log.js';
import { isAppUrl } from '../services/security/origins.js';

/**
 * The only place that touches ipcMain: every contract channel is registered
 * here, every call's sender is checked to be the app's own top frame, and every
 * input goes through the contract's schema before a handler sees it.
 */
export function registerContract(handlers: Handlers, reportInternal: InternalErrorReporter, logRefusal: (line: string) => void): () => void {
  // A misbehaving page could call in a loop: the first refusal of each kind is logged, the rest counted.
  const refusals = new RefusalLog(logRefusal);
  for (const channel of CHANNELS) {
    ipcMain.handle(ipcChannelName(channel), async (event: IpcMainInvokeEvent, input: unknown): Promise<Result<unknown>> => {
      const untrusted = untrustedSender(event);
      if (untrusted) {
        // Fixed words and the channel name only: the sender's URL may carry anything, secrets included.
        refusals.refused(`${channel} from ${untrusted}`);
        return { ok: false, error: { kind: 'forbidden', message: 'Request refused: it did not come from Capacity Desk.' } };
      }
      return dispatch(handlers, channel, input, reportInternal);
    });
  }
  return () => {
    refusals.flush();
    for (const channel of CHANNELS) ipcMain.removeHandler(ipcChannelName(channel));
  };
}

/** Why a sender is not the app's own top frame, in fixed words; null when it is. */
function untrustedSender(event: IpcMainInvokeEvent): string | null {
  const frame = event.senderFrame;
  if (frame === null) return 'a frame that no longer exists';
  if (frame.parent !== null) return 'a subframe';
  return isAppUrl(frame.url) ? null : 'a page outside the app';
}

/** Forwards push events to a window for as long as it lives. */
export function forwardEvents(events: AppEvents, contents: WebContents): void {
  const unsubscribe = events.subscribe((event, payload) => {
    if (!contents.isDestroyed() && (EVENTS as readonly string[]).includes(event)) contents.send(ipcEventName(event), payload);
  });
  contents.once('destroyed', unsubscribe);
}
