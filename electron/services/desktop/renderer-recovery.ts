/**
 * What the app says and offers when its page dies or hangs, or when it cannot
 * start at all: as data, so the wording and the choices are tested without
 * Electron (test/unit/desktop/renderer-recovery.test.ts). electron/main/recovery.ts
 * shows the boxes and carries out the choice.
 */

/** Electron's RenderProcessGoneDetails['reason']. */
export type RenderGoneReason =
  | 'clean-exit'
  | 'abnormal-exit'
  | 'killed'
  | 'crashed'
  | 'oom'
  | 'launch-failed'
  | 'integrity-failure'
  | 'memory-eviction';

export type RendererTrouble =
  | { readonly kind: 'gone'; readonly reason: RenderGoneReason; readonly exitCode: number }
  | { readonly kind: 'unresponsive' };

export type RecoveryChoice = 'reload' | 'close' | 'wait';

export interface RecoveryPrompt {
  readonly type: 'error' | 'warning';
  readonly title: string;
  readonly message: string;
  readonly detail: string;
  readonly buttons: readonly string[];
  readonly choices: readonly RecoveryChoice[];
  readonly defaultId: number;
  /** Escape or closing the box: never a reload the user did not ask for. */
  readonly cancelId: number;
  /** The log line (scope 'renderer'). */
  readonly log: { readonly level: 'warn' | 'error'; readonly message: string };
}

const GONE_WORDS: Readonly<Record<RenderGoneReason, string>> = {
  'clean-exit': 'closed',
  'abnormal-exit': 'stopped unexpectedly',
  killed: 'was ended by another program or the system',
  crashed: 'crashed',
  oom: 'ran out of memory',
  'launch-failed': 'could not be started',
  'integrity-failure': 'failed a code integrity check',
  'memory-eviction': 'was closed by the system to free memory',
};

/**
 * The box to show, or null when nothing went wrong: a clean exit is the
 * window closing (or a reload) and needs no word.
 */
export function recoveryPrompt(trouble: RendererTrouble, logsDir: string): RecoveryPrompt | null {
  if (trouble.kind === 'unresponsive') {
    return {
      type: 'warning',
      title: 'Capacity Desk is not responding',
      message: 'The window is not responding.',
      detail: `You can wait for it, reload it (anything not yet saved in the window is lost; actions already sent are not repeated), or close it. Details are in the log folder: ${logsDir}`,
      buttons: ['Reload', 'Close', 'Wait'],
      choices: ['reload', 'close', 'wait'],
      defaultId: 2,
      cancelId: 2,
      log: { level: 'warn', message: 'the window stopped responding' },
    };
  }
  if (trouble.reason === 'clean-exit') return null;
  const words = GONE_WORDS[trouble.reason];
  return {
    type: 'error',
    title: 'Capacity Desk window stopped',
    message: `The window’s page ${words}.`,
    detail: `Reload it to carry on (you may need to sign in again if your session was not saved), or close it. Details are in the log folder: ${logsDir}`,
    buttons: ['Reload', 'Close'],
    choices: ['reload', 'close'],
    defaultId: 0,
    cancelId: 1,
    log: { level: 'error', message: `the window's page ${words} (reason ${trouble.reason}, exit code ${trouble.exitCode})` },
  };
}

/** The choice behind the button the user pressed; anything unexpected counts as the cancel choice. */
export function chosen(prompt: RecoveryPrompt, response: number): RecoveryChoice {
  return prompt.choices[response] ?? prompt.choices[prompt.cancelId] ?? 'close';
}

/** The box shown when the app cannot start (dialog.showErrorBox): what failed, and where the log is. */
export function startFailureMessage(error: unknown, logsDir: string): { readonly title: string; readonly content: string } {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    title: 'Capacity Desk could not start',
    content: `Capacity Desk could not start: ${reason}\n\nThe log folder has the details; support may ask for it:\n${logsDir}`,
  };
}
