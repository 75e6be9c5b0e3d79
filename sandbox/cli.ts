/**
 * `npm run sandbox -- --port 4010 --seed 1 --scale 300 --data FILE --controls`
 * Runs the sandbox in the foreground with a log line per request.
 */
import { parseArgs } from 'node:util';
import { SANDBOX_USERS } from './accounts.js';
import { DEFAULT_SCALE } from './seed/generate.js';
import { startSandbox, type SandboxOptions } from './server.js';

const DEFAULT_PORT = 4010;

function integer(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`--${name} must be a whole number, got ${text}\n`);
    process.exit(2);
  }
  return value;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    scale: { type: 'string' },
    accounts: { type: 'string' },
    data: { type: 'string' },
    now: { type: 'string' },
    controls: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (values.help) {
  process.stdout.write(
    [
      'Usage: tsx sandbox/cli.ts [options]',
      `  --port N      port to listen on (default ${DEFAULT_PORT}; 0 = any free port)`,
      '  --host H      address to bind (default 127.0.0.1)',
      '  --seed N      seed of the generated data (default 1)',
      `  --scale N     number of capacity policies (default ${DEFAULT_SCALE})`,
      '  --accounts N  linked accounts added to the first user, their policies spread over them (default 0)',
      '  --data FILE   keep state in FILE across restarts',
      '  --now ISO     start the sandbox clock at this instant',
      '  --controls    enable the test controls under /sandbox/',
      '  --quiet       no log line per request',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

const options: SandboxOptions = {
  port: integer('port', values.port, DEFAULT_PORT),
  host: values.host ?? '127.0.0.1',
  seed: integer('seed', values.seed, 1),
  scale: integer('scale', values.scale, DEFAULT_SCALE),
  accounts: integer('accounts', values.accounts, 0),
  controls: values.controls,
  dataFile: values.data,
  now: values.now,
  ...(values.quiet ? {} : { log: (line: string) => process.stdout.write(`${line}\n`) }),
};

const started = Date.now();
const sandbox = await startSandbox(options);
process.stdout.write(
  [
    `Sandbox listening on ${sandbox.url} (seed ${options.seed}, scale ${options.scale}, ready in ${Date.now() - started} ms, RSS ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB)`,
    `OpenAPI document: ${sandbox.url}/openapi.json`,
    options.dataFile ? `State file: ${options.dataFile}` : 'State: in memory only',
    options.controls ? `Test controls: ${sandbox.url}/sandbox/ (reset, clock, faults, stats)` : 'Test controls: off (--controls to enable)',
    'Accounts:',
    ...SANDBOX_USERS.map(
      (user) => `  ${user.username}  password ${user.password}  customers ${user.customers.map((c) => c.cidExt).join(', ')}`,
    ),
    '',
  ].join('\n'),
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${signal}: finishing requests and saving state...\n`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
