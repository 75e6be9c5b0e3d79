import { parseArgs } from 'node:util';

/** What `node dist/host/host.mjs --help` prints. */
export const USAGE = `Usage: node dist/host/host.mjs [options]

Runs Capacity Desk without Electron: the app's services and a loopback host,
opening Chromium in app mode when a display is there (else it prints a link).

Options:
  --port <number>      the loopback port (default: a free one)
  --data-dir <path>    the data folder (default: the app's own; CAPACITY_DESK_DATA_DIR overrides it)
  --no-open            print the link instead of opening Chromium
  -h, --help           show this text
`;

export interface HostOptions {
  readonly port: number;
  readonly dataDir: string | undefined;
  readonly noOpen: boolean;
  readonly devRenderer: string | undefined;
  readonly devSocket: string | undefined;
  readonly devNonce: string | undefined;
}

export type ParsedHostArgs = { kind: 'run'; options: HostOptions } | { kind: 'help' } | { kind: 'error'; message: string };

/** The host's command line, read without throwing: a mistake becomes a sentence, not a stack trace. */
export function parseHostArgs(args: readonly string[]): ParsedHostArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        help: { type: 'boolean', short: 'h', default: false },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'no-open': { type: 'boolean', default: false },
        // `npm run dev` (scripts/dev.ts): the renderer from a Vite dev server on loopback, with hot reload.
        'dev-renderer': { type: 'string' },
        'dev-socket': { type: 'string' },
        'dev-nonce': { type: 'string' },
      },
    }));
  } catch (error) {
    // parseArgs says which option it did not expect, in words; only that line is shown.
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return { kind: 'error', message: `--port must be a whole number from 0 to 65535, not "${values.port}".` };
  }
  return {
    kind: 'run',
    options: {
      port,
      dataDir: values['data-dir'],
      noOpen: values['no-open'],
      devRenderer: values['dev-renderer'],
      devSocket: values['dev-socket'],
      devNonce: values['dev-nonce'],
    },
  };
}
