import { dialog, type BrowserWindow } from 'electron';
import type { Logger } from '../services/logging/file-logger.js';
import { FileLogger } from '../services/logging/file-logger.js';
import { chosen, recoveryPrompt, startFailureMessage, type RendererTrouble } from '../services/desktop/renderer-recovery.js';

/**
 * A crashed or hung page gets a log line and a box offering to reload it,
 * instead of a blank or frozen window. The words and choices come from
 * renderer-recovery.ts; this only shows them and acts.
 */
export function watchRenderer(window: BrowserWindow, logger: Logger, logsDir: string): void {
  let asking = false;
  const offer = async (trouble: RendererTrouble): Promise<void> => {
    const prompt = recoveryPrompt(trouble, logsDir);
    if (!prompt || asking || window.isDestroyed()) return;
    logger[prompt.log.level]('renderer', prompt.log.message);
    asking = true;
    try {
      const { response } = await dialog.showMessageBox(window, {
        type: prompt.type,
        title: prompt.title,
        message: prompt.message,
        detail: prompt.detail,
        buttons: [...prompt.buttons],
        defaultId: prompt.defaultId,
        cancelId: prompt.cancelId,
        noLink: true,
      });
      if (window.isDestroyed()) return;
      const choice = chosen(prompt, response);
      logger.info('renderer', `the user chose ${choice}`);
      if (choice === 'reload') window.webContents.reload();
      else if (choice === 'close') window.close();
    } finally {
      asking = false;
    }
  };
  window.webContents.on('render-process-gone', (_event, details) => void offer({ kind: 'gone', reason: details.reason, exitCode: details.exitCode }));
  window.on('unresponsive', () => void offer({ kind: 'unresponsive' }));
  window.on('responsive', () => logger.info('renderer', 'the window is responding again'));
}

/** A failed start is logged and shown (naming the log folder), not only printed to a terminal nobody sees. */
export async function reportStartFailure(error: unknown, logsDir: string, logger: FileLogger = new FileLogger({ dir: logsDir })): Promise<void> {
  console.error('Capacity Desk failed to start', error);
  logger.error('startup', 'Capacity Desk failed to start', error);
  await logger.flush();
  const message = startFailureMessage(error, logsDir);
  // Safe before 'ready'; on Linux before 'ready' Electron prints it to stderr instead.
  dialog.showErrorBox(message.title, message.content);
}
