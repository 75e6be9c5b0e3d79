/**
 * Main-process faults after start (an uncaught exception, an unhandled
 * rejection, a helper process that died) and native crashes: each is logged,
 * and the person is told once per run (a box naming the log folder), not once
 * per fault, so a fault that repeats does not bury the window in boxes.
 */
export type Fault =
  | { readonly kind: 'exception'; readonly error: unknown }
  | { readonly kind: 'rejection'; readonly reason: unknown }
  | { readonly kind: 'child-process-gone'; readonly type: string; readonly reason: string; readonly exitCode: number; readonly name?: string | undefined };

export interface FaultNotice {
  readonly title: string;
  readonly message: string;
  readonly detail: string;
}

/** Reasons Electron gives for a helper that ended on purpose or by the person's hand: logged, never shown. */
const QUIET_REASONS = new Set(['clean-exit', 'killed']);

export class FaultReport {
  #told = false;

  constructor(
    private readonly deps: {
      readonly log: (message: string, error?: unknown) => void;
      readonly tell: (notice: FaultNotice) => void;
      readonly logsDir: string;
      /** Where native crash dumps are kept (Electron's crashReporter, not uploaded). */
      readonly crashDumpsDir: string;
    },
  ) {}

  report(fault: Fault): void {
    const { message, error } = describe(fault);
    this.deps.log(message, error);
    if (fault.kind === 'child-process-gone' && QUIET_REASONS.has(fault.reason)) return;
    if (this.#told) return;
    this.#told = true;
    this.deps.tell({
      title: 'Capacity Desk ran into a problem',
      message: `${message}. Capacity Desk keeps running, but something may not work until you restart it.`,
      detail: `What happened is in the log folder (Help > Open Logs Folder): ${this.deps.logsDir}. Crash reports stay on this computer, in ${this.deps.crashDumpsDir}; nothing is uploaded. Send them to support if this keeps happening.`,
    });
  }
}

function describe(fault: Fault): { message: string; error?: unknown } {
  if (fault.kind === 'exception') return { message: 'An unexpected error in the main process', error: fault.error };
  if (fault.kind === 'rejection') return { message: 'An unexpected error in the main process (unhandled rejection)', error: fault.reason };
  const who = fault.name ? `${fault.type} (${fault.name})` : fault.type;
  return { message: `A helper process ended: ${who}, ${fault.reason}, exit code ${fault.exitCode}` };
}
