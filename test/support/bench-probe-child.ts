/**
 * Child of test/integration/diagnostics/bench-probe.test.ts: starts the bench
 * probe over a real AppEvents, reports one sync phase, then blocks its event
 * loop for the time given in argv (a stand-in for a long write).
 */
import { startBenchProbe } from '../../electron/services/diagnostics/bench-probe.js';
import { AppEvents } from '../../electron/services/events.js';

const events = new AppEvents();
startBenchProbe(events);
process.on('message', (message) => {
  if ((message as { stall?: number }).stall === undefined) return;
  events.emit('offline.syncProgress', { phase: 'capacities', fetched: 7, total: 9 });
  const until = Date.now() + Number((message as { stall: number }).stall);
  while (Date.now() < until) {
    // Busy on purpose: the event loop cannot run.
  }
  process.send?.({ stalled: true });
});
process.send?.({ ready: true });
