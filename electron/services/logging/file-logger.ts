import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Redactor } from './redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(scope: string, message: string, detail?: unknown): void;
  info(scope: string, message: string, detail?: unknown): void;
  warn(scope: string, message: string, detail?: unknown): void;
  error(scope: string, message: string, detail?: unknown): void;
}

export interface FileLoggerOptions {
  readonly dir: string;
  /** Defaults to LOG_FILE; the audit trail has a file of its own. */
  readonly fileName?: string;
  /** Rotate when the current file passes this size. */
  readonly maxBytes?: number;
  /** Rotated files kept besides the current one. */
  readonly keep?: number;
  /** Also echo to stderr (development, the browser host). */
  readonly echo?: boolean;
  readonly now?: () => Date;
  /** Shared by the logs of one app, so a secret registered once is kept out of all of them. */
  readonly redactor?: Redactor;
}

export const LOG_FILE = 'capacity-desk.log';
export const AUDIT_LOG_FILE = 'audit.log';

/**
 * Plain-text, line-per-event log in the app's data folder: every line passes
 * through the redactor, files rotate by size, and writes are queued so lines
 * never interleave. Logging never throws into the caller.
 */
export class FileLogger implements Logger {
  readonly redactor: Redactor;
  readonly dir: string;
  readonly #fileName: string;
  readonly #maxBytes: number;
  readonly #keep: number;
  readonly #echo: boolean;
  readonly #now: () => Date;
  #queue: Promise<void> = Promise.resolve();
  /** Set by close: the folder may be gone (a test removes it, a wipe follows), so lines go to stderr instead. */
  #closed = false;

  constructor(options: FileLoggerOptions) {
    this.redactor = options.redactor ?? new Redactor();
    this.dir = options.dir;
    this.#fileName = options.fileName ?? LOG_FILE;
    this.#maxBytes = options.maxBytes ?? 1_000_000;
    this.#keep = options.keep ?? 3;
    this.#echo = options.echo ?? false;
    this.#now = options.now ?? (() => new Date());
  }

  get file(): string {
    return join(this.dir, this.#fileName);
  }

  debug(scope: string, message: string, detail?: unknown): void {
    this.#write('debug', scope, message, detail);
  }
  info(scope: string, message: string, detail?: unknown): void {
    this.#write('info', scope, message, detail);
  }
  warn(scope: string, message: string, detail?: unknown): void {
    this.#write('warn', scope, message, detail);
  }
  error(scope: string, message: string, detail?: unknown): void {
    this.#write('error', scope, message, detail);
  }

  /** Resolves when every line logged so far is on disk. */
  flush(): Promise<void> {
    return this.#queue;
  }

  /** Resolves when every line logged so far is on disk; a line logged after is printed to stderr, never written into the folder. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#queue;
  }

  #write(level: LogLevel, scope: string, message: string, detail?: unknown): void {
    const rendered = detail === undefined ? '' : ` ${detail instanceof Error ? (detail.stack ?? detail.message) : inspect(detail, { depth: 4, breakLength: Infinity })}`;
    const line = escapeControls(this.redactor.redact(`${this.#now().toISOString()} ${level.toUpperCase().padEnd(5)} [${scope}] ${message}${rendered}`));
    if (this.#echo || this.#closed) process.stderr.write(`${line}\n`);
    if (this.#closed) return;
    this.#queue = this.#queue.then(() => this.#append(`${line}\n`)).catch(() => undefined);
  }

  async #append(text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const size = await stat(this.file).then((s) => s.size, () => 0);
    if (size + text.length > this.#maxBytes && size > 0) await this.#rotate();
    await appendFile(this.file, text, { mode: 0o600 });
  }

  async #rotate(): Promise<void> {
    await rm(`${this.file}.${this.#keep}`, { force: true });
    for (let i = this.#keep - 1; i >= 1; i -= 1) {
      await rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(() => undefined);
    }
    await rename(this.file, `${this.file}.1`);
  }
}

/**
 * One entry stays one entry whatever a logged value holds. A line break in a
 * value (a stack, a multi-line detail) continues the entry on an indented line,
 * so it can never start a line that looks like an entry of its own. Every other
 * character a terminal or log viewer may act on (a carriage return, which many
 * viewers and Windows tools break lines at; escape sequences; NUL; DEL; the C1
 * controls such as NEL; the Unicode line and paragraph separators) is written
 * as an escape (`\x0d`, `\u2028`), visible and inert. Tabs are kept.
 */
export function escapeControls(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
      const code = char.charCodeAt(0);
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    })
    .replace(/\n/g, '\n    ');
}
