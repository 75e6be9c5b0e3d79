import { performance } from 'node:perf_hooks';

/**
 * The moment each step of a start was first reached (epoch ms), so the bench
 * can say where a launch's time goes (bench/launch.bench.ts reads them through
 * the bench probe). One entry per step name, kept once: a fixed handful of
 * numbers for the life of the process, whatever it does after its start.
 */
const reached = new Map<LaunchStep, number>();

export type LaunchStep =
  | 'host modules loaded'
  | 'session restored'
  | 'services created'
  | 'host listening'
  | 'replica opened'
  | 'app page served'
  | 'page code served'
  | 'overview count prepared'
  | 'overview count prepared, done'
  | 'overview asked'
  | 'overview answered'
  | 'slim rows loaded'
  | 'full check started'
  | 'full check ended'
  | 'sign-in refresh started';

export function markLaunch(step: LaunchStep): void {
  if (!reached.has(step)) reached.set(step, performance.timeOrigin + performance.now());
}

/** The steps reached so far, the process's own start first. */
export function launchMarks(): Array<{ step: string; at: number }> {
  return [{ step: 'process started', at: performance.timeOrigin }, ...[...reached].map(([step, at]) => ({ step, at }))];
}
