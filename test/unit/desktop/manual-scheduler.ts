import type { Cancel, Scheduler } from '../../../electron/services/desktop/scheduler.js';

interface Task {
  due: number;
  readonly every: number | null;
  readonly run: () => void;
  cancelled: boolean;
}

/** A clock the test moves by hand; tasks run in time order as it passes them. */
export class ManualScheduler implements Scheduler {
  #now: number;
  readonly #tasks: Task[] = [];

  constructor(start = new Date('2026-03-02T09:00:00Z')) {
    this.#now = start.getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  after(ms: number, run: () => void): Cancel {
    return this.#add({ due: this.#now + ms, every: null, run, cancelled: false });
  }

  every(ms: number, run: () => void): Cancel {
    return this.#add({ due: this.#now + ms, every: ms, run, cancelled: false });
  }

  /** Tasks waiting to run (for "nothing is scheduled" checks). */
  get pending(): number {
    return this.#tasks.filter((task) => !task.cancelled).length;
  }

  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const next = this.#tasks.filter((task) => !task.cancelled && task.due <= end).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.#now = next.due;
      if (next.every === null) next.cancelled = true;
      else next.due += next.every;
      next.run();
    }
    this.#now = end;
  }

  #add(task: Task): Cancel {
    this.#tasks.push(task);
    return () => {
      task.cancelled = true;
    };
  }
}
