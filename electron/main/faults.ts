import { app, crashReporter, dialog } from 'electron';
import { join } from 'node:path';
import { FaultReport } from '../services/desktop/fault-report.js';
import type { FileLogger } from '../services/logging/file-logger.js';

/**
 * Native crashes are written as minidumps beside the logs (Help > Open Logs
 * Folder shows them) and never uploaded. Must run before 'ready' so the
 * crash handler covers every process from the start.
 */
export function startCrashReporter(logsDir: string): string {
  const dumps = join(logsDir, 'crashes');
  app.setPath('crashDumps', dumps);
  crashReporter.start({ uploadToServer: false, compress: true });
  return dumps;
}

/** Main-process errors after start, and helper processes that died: logged, the person told once (fault-report.ts). */
export function watchFaults(logger: FileLogger, logsDir: string, crashDumpsDir: string): void {
  const report = new FaultReport({
    log: (message, error) => logger.error('fault', message, error),
    tell: (notice) => {
      // Written down first: the box blocks nothing, but the app may not live to flush later.
      void logger.flush().finally(() => {
        void dialog.showMessageBox({ type: 'error', title: notice.title, message: notice.message, detail: notice.detail, buttons: ['OK'], noLink: true });
      });
    },
    logsDir,
    crashDumpsDir,
  });
  process.on('uncaughtException', (error) => report.report({ kind: 'exception', error }));
  process.on('unhandledRejection', (reason) => report.report({ kind: 'rejection', reason }));
  app.on('child-process-gone', (_event, details) =>
    report.report({ kind: 'child-process-gone', type: details.type, reason: details.reason, exitCode: details.exitCode, name: details.name ?? details.serviceName }),
  );
}
