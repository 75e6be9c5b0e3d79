/**
 * Child process of the crash-safety test: writes the capacity cache over and
 * over, each version a list whose every item carries the version's tag, until
 * it is killed. Arguments: data folder, base64 cache key, the tag of this
 * child's versions, where to stop (CrashPoint, as JSON), the rows of a
 * version (CRASH_TEST_ROWS when not given) and how it writes: 'whole' (each
 * version as a refresh writes a list it holds, the default) or 'stream' (one
 * version only, into the empty copy, as a first sync writes its pages as they
 * come: streamFirstSync, a page of 100 at a time).
 *
 * The kill point is chosen by the write's own progress, not by a clock: the
 * write's yields between its slices are counted as it makes them. At the
 * chosen yield of its first write, or once that write has resolved, the child says where it is ("at in-write" / "at
 * after-write") and, when told to, stops dead there (the main thread blocked,
 * the checkpoint thread still running) until the parent kills it; otherwise it
 * writes on and the kill lands wherever the child has got to by then. Told to hold the log, it keeps a read
 * snapshot open from before its first write, so that write stays in the log (uncheckpointed) until the kill.
 */
import { createHook } from 'node:async_hooks';
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { openKeyed, type Connection } from '../../electron/services/platform/sqlcipher.js';
import { streamFirstSync, writeKind } from '../../electron/services/replica/replica-writes.js';
import { Replica, replicaKeyService } from '../../electron/services/replica/replica.js';
import { CRASH_TEST_ROWS, type CrashPoint } from './crash-test-constants.js';
import { FixedSecretStore } from './fixed-key-store.js';
import { syntheticPolicies } from './synthetic-policies.js';

const [dataDir, key, tag, pointJson, rowsArg, mode] = process.argv.slice(2) as [string, string, string, string, string | undefined, string | undefined];
const rowCount = rowsArg ? Number(rowsArg) : CRASH_TEST_ROWS;
const point = JSON.parse(pointJson) as CrashPoint;
const owner = { profileId: 'crash', username: 'crash@example.com' };
const secrets = new FixedSecretStore({ [FixedSecretStore.key(replicaKeyService(owner.profileId), owner.username)]: key });

let writing = false;
let yields = 0;
let stopped = false;

/** Written at once, from inside the hook too (process.stdout.write would start async work there). */
function say(line: string): void {
  writeSync(1, `${line}\n`);
}

function stopHere(where: 'in-write' | 'after-write'): void {
  stopped = true;
  say(`at ${where}`);
  // Blocks this thread for good: the parent's SIGKILL ends it here.
  if (point.pause) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

// The write's yields between its slices are setImmediate calls: each is counted as it is made, and the child
// stops right there, inside the write's transaction, at the chosen one (no timer of our own, nothing that spins).
createHook({
  init(_id, type) {
    if (!writing || type !== 'Immediate') return;
    yields += 1;
    if (!stopped && point.atYield !== 'end' && yields >= point.atYield) stopHere('in-write');
  },
}).enable();

/**
 * Kept reachable until the kill: a connection nothing refers to is closed when it is garbage-collected, and its
 * snapshot with it (at load 48 a collection let the checkpoint empty the log of a "held" write).
 */
const heldReaders: Connection[] = [];

/** A reader's snapshot from before the write, held until the kill (the snapshot is taken at its first read). */
function holdLog(): void {
  const reader = openKeyed(join(cache.dir, 'replica.db'), Buffer.from(key, 'base64'), 1024);
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM sqlite_master').get();
  heldReaders.push(reader);
}

const cache = await Replica.open({ dataDir, secrets, owner });
// A streamed first sync starts from an empty folder: its file exists once the stream has begun.
if (point.holdLog && mode !== 'stream') holdLog();
if (mode === 'stream') {
  const versionTag = `${tag}w1`;
  const rows = syntheticPolicies(rowCount, versionTag);
  writing = true;
  const stream = await streamFirstSync(cache);
  if (!stream) throw new Error('the copy did not take a streamed first sync');
  if (point.holdLog) holdLog();
  for (let at = 0; at < rows.length; at += 100) {
    // The next page arrives later (a fetch's wait): a yield between pages, counted as the kill points are.
    await new Promise((resolve) => setImmediate(resolve));
    await stream.add(rows.slice(at, at + 100));
  }
  await stream.finish(new Date(), [], new Map());
  writing = false;
  say(`wrote ${versionTag} ${yields}`);
  if (!stopped) stopHere('after-write');
  // Killed wherever it is: nothing more to write, the checkpoint thread may still be folding the log.
  setInterval(() => undefined, 60_000);
}
for (let version = 1; mode !== 'stream'; version += 1) {
  const versionTag = `${tag}w${version}`;
  const rows = syntheticPolicies(rowCount, versionTag);
  writing = true;
  yields = 0;
  await writeKind(cache, 'capacities', rows);
  writing = false;
  // The parent learns which version is committed, and how many yields a whole write made here.
  say(`wrote ${versionTag} ${yields}`);
  // A write with fewer yields than asked for stops right after it too: the child always stops in or just after its first write.
  if (!stopped) stopHere('after-write');
}
