import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNELS, EVENTS, ipcChannelName, ipcEventName } from '../../shared/ipc/channels.js';
import type { Result } from '../../shared/ipc/result.js';
import type { AppEvents } from '../services/events.js';
import { dispatch, type InternalErrorReporter } from '../services/ipc/dispatch.js';
import type { Handlers } from '../services/ipc/handlers.js';
import { isAppUrl } from '../services/security/origins.js';

/**
 * The only place that touches ipcMain: every contract channel is registered
 * here, every call's sender is checked to be the app's own top frame, and every
 * input goes through the contract's schema before a handler sees it.
 */
export function registerContract(handlers: Handlers, reportInternal: InternalErrorReporter): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(ipcChannelName(channel), async (event: IpcMainInvokeEvent, input: unknown): Promise<Result<unknown>> => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { kind: 'validation', message: 'Request refused: it did not come from Capacity Desk.' } };
      }
      return dispatch(handlers, channel, input, reportInternal);
    });
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(ipcChannelName(channel));
  };
}

function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

/** Forwards push events to a window for as long as it lives. */
export function forwardEvents(events: AppEvents, contents: WebContents): void {
  const unsubscribe = events.subscribe((event, payload) => {
    if (!contents.isDestroyed() && (EVENTS as readonly string[]).includes(event)) contents.send(ipcEventName(event), payload);
  });
  contents.once('destroyed', unsubscribe);
}
