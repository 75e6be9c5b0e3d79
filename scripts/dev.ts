import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { context, type Plugin } from 'esbuild';
import { createServer } from 'vite';
import { copyBundleAssets } from './lib/bundle-assets.js';
import { nodeBundles } from './lib/node-bundles.js';

/**
 * `npm run dev`: the renderer from Vite's dev server (hot reload, source maps),
 * the node side rebuilt on every change with source maps into dist-dev/, and
 * the browser host restarted on the new build. The host stays the only door:
 * it serves Vite's pages and modules under its own origin, with its session
 * cookie, Host and Origin checks, so the app runs as it does in a release.
 */
const OUT = 'dist-dev';
const DATA_DIR = '.dev-data';

const socketPort = await freePort();
// One address for the host across restarts, so the open page only needs a new link after one.
const hostPort = await freePort();
// Vite marks the styles and scripts it injects with this nonce; the host's page policy allows it.
const nonce = randomBytes(18).toString('base64');
const vite = await createServer({
  configFile: 'vite.config.ts',
  clearScreen: false,
  server: { host: '127.0.0.1', port: 5173, strictPort: false, hmr: { host: '127.0.0.1', port: socketPort, clientPort: socketPort } },
  html: { cspNonce: nonce },
});
await vite.listen();
const viteAddress = vite.httpServer?.address() as AddressInfo | null;
if (!viteAddress) throw new Error('dev: the Vite dev server did not start');
const rendererOrigin = `http://127.0.0.1:${viteAddress.port}`;

let host: ChildProcess | null = null;
let starts = 0;
let stopping = false;

/** (Re)starts the browser host on the latest build; the first start opens Chromium, later ones print a link. */
async function restartHost(): Promise<void> {
  if (stopping) return;
  const previous = host;
  host = null;
  if (previous && previous.exitCode === null) {
    const exited = new Promise((resolve) => previous.once('exit', resolve));
    previous.kill('SIGTERM');
    await exited;
  }
  const args = [
    '--enable-source-maps',
    `${OUT}/host/host.mjs`,
    '--data-dir',
    DATA_DIR,
    '--port',
    String(hostPort),
    '--dev-renderer',
    rendererOrigin,
    '--dev-socket',
    `ws://127.0.0.1:${socketPort}`,
    '--dev-nonce',
    nonce,
    ...(starts > 0 ? ['--no-open'] : []),
  ];
  starts += 1;
  if (starts > 1) console.log('dev: the main-process code changed; the host restarted. Open the new link (the old session ended with it).');
  host = spawn(process.execPath, args, { stdio: 'inherit' });
}

/** Restarts the host after each successful rebuild of the node side. */
function restartOnBuild(): Plugin {
  return {
    name: 'capacity-desk-dev-restart',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length === 0) void restartHost();
      });
    },
  };
}

const bundles = nodeBundles(OUT, { sourcemap: true });
await copyBundleAssets(OUT);
// The host bundle carries the services; the other bundles are rebuilt for Electron and the shim.
const contexts = await Promise.all(
  bundles.map((options) => context(options.outfile === `${OUT}/host/host.mjs` ? { ...options, plugins: [restartOnBuild()] } : options)),
);
await Promise.all(contexts.map((ctx) => ctx.watch()));
console.log(`dev: renderer with hot reload from ${rendererOrigin}; node side rebuilt into ${OUT}/ on change; data in ${DATA_DIR}/.`);

async function stop(): Promise<void> {
  stopping = true;
  const running = host;
  if (running && running.exitCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  }
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  await vite.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// However this process ends, the host does not outlive it.
process.on('exit', () => {
  if (host && host.exitCode === null) host.kill('SIGTERM');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
