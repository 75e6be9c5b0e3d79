/** Cancels what a Scheduler call set up. */
export type Cancel = () => void;

/**
 * Time as the desktop services see it: injected, so tests step through hours
 * of update checks and notification rounds without waiting.
 */
export interface Scheduler {
  now(): Date;
  after(ms: number, task: () => void): Cancel;
  every(ms: number, task: () => void): Cancel;
}

/** The real clock. Timers are unref'd: a pending check never keeps the process alive. */
export const systemScheduler: Scheduler = {
  now: () => new Date(),
  after(ms, task) {
    const timer = setTimeout(task, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
  every(ms, task) {
    const timer = setInterval(task, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};
