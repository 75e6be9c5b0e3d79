import { spawn } from 'node:child_process';
import { readLaunchFacts } from './lib/launch-facts.js';
import { planLaunch } from './lib/launch-plan.js';

/**
 * `npm start`: the Electron app when its binary is here and can open a window,
 * otherwise the same app through the browser host (Chromium in app mode, or a
 * printed address). Each departure from a plain Electron start is said, with why.
 */
const extraArgs = process.argv.slice(2);
const plan = planLaunch(readLaunchFacts());

let child;
if (plan.kind === 'electron') {
  for (const note of plan.notes) console.log(`start: ${note}`);
  child = spawn(plan.path, [...plan.switches, '.', ...extraArgs], { stdio: 'inherit' });
} else {
  console.log(`start: ${plan.reason}; starting the browser host instead.`);
  child = spawn(process.execPath, ['dist/host/host.mjs', ...extraArgs], { stdio: 'inherit' });
}

const forward = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
