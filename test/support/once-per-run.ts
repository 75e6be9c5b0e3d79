import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where a made thing's answer is written once it is whole, and where a failed make says why. */
const ANSWER = 'answer.json';
const FAILED = 'failed.txt';

export interface OncePerRunOptions {
  /** How often a waiting caller looks for the answer. */
  readonly pollMs?: number;
  /** How long a waiting caller waits for the maker before it gives up (the maker's own time included). */
  readonly timeoutMs?: number;
}

/**
 * Makes something once for a whole run, across the processes of its lanes: the first caller to claim `dir` (an
 * atomic mkdir, which one process only can win) makes it inside that folder and writes its answer there; every other
 * caller, in any process, waits for that answer and reads it. A failed make is written too, so the waiters fail with
 * its reason instead of waiting out their time. The folder is the run's: whoever set the run up removes it.
 */
export async function oncePerRun<T>(dir: string, make: (dir: string) => Promise<T>, options: OncePerRunOptions = {}): Promise<T> {
  const claimed = await mkdir(dir, { recursive: false }).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (claimed) {
    try {
      const made = await make(dir);
      // Written whole under another name, then renamed: a waiter never reads half an answer.
      await writeFile(join(dir, `${ANSWER}.part`), JSON.stringify(made));
      await rename(join(dir, `${ANSWER}.part`), join(dir, ANSWER));
      return made;
    } catch (error) {
      await writeFile(join(dir, FAILED), String(error instanceof Error ? (error.stack ?? error.message) : error));
      throw error;
    }
  }
  const pollMs = options.pollMs ?? 250;
  const until = Date.now() + (options.timeoutMs ?? 300_000);
  for (;;) {
    const answer = await readFile(join(dir, ANSWER), 'utf8').catch(() => null);
    if (answer !== null) return JSON.parse(answer) as T;
    const failed = await readFile(join(dir, FAILED), 'utf8').catch(() => null);
    if (failed !== null) throw new Error(`${dir} was being made by another process of this run, which failed: ${failed}`);
    if (Date.now() > until) throw new Error(`${dir} was claimed by another process of this run and never made (waited ${options.timeoutMs ?? 300_000} ms)`);
    await sleep(pollMs);
  }
}
