import { spawn } from 'node:child_process';
import { findElectronBinary } from './lib/electron-binary.js';

/**
 * `npm start`: the Electron app when its binary is here, otherwise the same
 * app through the browser host (Chromium in app mode, or a printed address).
 */
const extraArgs = process.argv.slice(2);
const electron = findElectronBinary();

const child =
  electron.path !== null
    ? spawn(electron.path, ['.', ...extraArgs], { stdio: 'inherit' })
    : (console.log(`Electron is not available (${electron.reason}); starting the browser host instead.`),
      spawn(process.execPath, ['dist/host/host.mjs', ...extraArgs], { stdio: 'inherit' }));

const forward = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
