import { parentPort } from 'node:worker_threads';
import { readComparedPage } from './list-page-reading.js';
import type { ToListPageThread, FromListPageThread } from './list-page-thread.js';

/**
 * The list-page thread's script (bundled on its own by the build: dist/electron/list-page-thread.cjs and
 * dist/host/list-page-thread.cjs; run from its source under tsx). It holds the copy's record hashes as the main
 * thread hands them, and reads each page it is given (readComparedPage); its answers keep the pages' order.
 */
const stored = new Map<string, string | null>();
const port = parentPort;
if (!port) throw new Error('the list-page thread runs as a worker thread only');

port.on('message', (message: ToListPageThread) => {
  if ('stored' in message) {
    const [ids, hashes] = message.stored;
    for (let i = 0; i < ids.length; i += 1) stored.set(ids[i] as string, hashes[i] ?? null);
    return;
  }
  const { id, status, body, context, withDrift } = message.read;
  let reply: FromListPageThread;
  try {
    reply = { id, read: readComparedPage({ status, body: new Uint8Array(body), context, withDrift }, stored) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
// Read by the main thread before it hands over the first page: until then a thread that failed to load costs no page.
port.postMessage({ ready: true } satisfies FromListPageThread);
